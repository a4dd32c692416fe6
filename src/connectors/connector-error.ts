// What can go wrong talking to an ERP, as one error type with a kind: the pull records it, the
// connection test shows it, and the retry policy decides by it. Messages say what failed and what to check.

export type ConnectorErrorKind =
  | 'address_refused'
  | 'dns'
  | 'tls'
  | 'connect'
  | 'timeout'
  | 'network'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'throttled'
  | 'server'
  | 'http'
  | 'token'
  | 'protocol'
  | 'incomplete'
  | 'aborted';

export class ConnectorError extends Error {
  constructor(
    readonly kind: ConnectorErrorKind,
    message: string,
    /** Worth another attempt (network trouble, 429, 5xx); the retry policy still caps the attempts. */
    readonly retryable = false,
    readonly details: { status?: number; code?: string; retryAfterMs?: number; url?: string } = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

interface ErrorLike {
  code?: string;
  message?: string;
  name?: string;
  cause?: unknown;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** The innermost error that carries a code (undici and fetch wrap the socket's error). */
function withCode(error: unknown): ErrorLike {
  let current = error as ErrorLike | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code && current.code !== 'UND_ERR_SOCKET') return current;
    current = current.cause as ErrorLike | undefined;
  }
  return error ?? {};
}

function tlsAlert(code: string): string | undefined {
  const match = /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13)_ALERT_(.+)$/.exec(code);
  return match ? match[1].toLowerCase().replace(/_/g, ' ') : undefined;
}

/**
 * A transport failure (no HTTP answer) as a ConnectorError. `presentsClientCertificate`: the ERP's
 * refusal of a handshake then most likely concerns our certificate, and the message says so.
 */
export function classifyTransportError(error: unknown, host: string, presentsClientCertificate: boolean): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const inner = withCode(error);
  const code = inner.code ?? '';
  const text = inner.message ?? String(error);
  const details = { code };
  if (code === 'ERP_ADDRESS_REFUSED') return new ConnectorError('address_refused', text, false, details);
  if (code === 'ENOTFOUND')
    return new ConnectorError('dns', `DNS: ${host} does not resolve (ENOTFOUND); check the host name of base_url`, false, details);
  if (code === 'EAI_AGAIN') return new ConnectorError('dns', `DNS: resolving ${host} failed temporarily (EAI_AGAIN)`, true, details);
  if (UNTRUSTED.has(code)) {
    return new ConnectorError(
      'tls',
      `TLS: the ERP's server certificate is not trusted (${code}); add the issuing CA to ca_certificates`,
      false,
      details,
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new ConnectorError('tls', `TLS: the ERP's server certificate is outside its validity period (${code})`, false, details);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return new ConnectorError('tls', `TLS: the ERP's server certificate is not issued for ${host} (${code})`, false, details);
  }
  const alert = tlsAlert(code);
  if (alert === 'protocol version') {
    return new ConnectorError(
      'tls',
      `TLS: the ERP refused the handshake with alert "${alert}": it offers no TLS version we accept (the ERP must offer TLS 1.2 or newer)`,
      false,
      details,
    );
  }
  if (alert) {
    const why = presentsClientCertificate
      ? 'it does not accept our client certificate (is it imported and mapped to the technical user in the ERP?)'
      : 'it may require a client certificate or newer TLS settings';
    return new ConnectorError('tls', `TLS: the ERP refused the handshake with alert "${alert}": ${why}`, false, details);
  }
  if (/^ERR_SSL_|^ERR_OSSL_/.test(code) || /\b(ssl|tls)\b/i.test(text)) {
    const protocol = /VERSION|PROTOCOL/.test(code) ? ' (the ERP must offer TLS 1.2 or newer on an HTTPS port)' : '';
    return new ConnectorError('tls', `TLS: the handshake with ${host} failed: ${text}${protocol}`, false, details);
  }
  if (code === 'ECONNREFUSED')
    return new ConnectorError('connect', `Connection to ${host} refused (ECONNREFUSED): is the port right and the ERP up?`, true, details);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new ConnectorError('connect', `${host} is unreachable (${code})`, true, details);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new ConnectorError('timeout', `Connecting to ${host} timed out`, true, details);
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return new ConnectorError('timeout', `${host} did not answer in time (headers timeout)`, true, details);
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return new ConnectorError('timeout', `${host} stopped sending the response (body timeout)`, true, details);
  if (inner.name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR')
    return new ConnectorError('aborted', 'The request was aborted', false, details);
  // A refused client certificate is refused again on every attempt: not worth a retry (the next run tries).
  const certificateHint = 'it most likely does not accept our client certificate (issued by a CA it trusts? imported in the ERP?)';
  if (/before secure TLS connection was established/.test(text)) {
    if (presentsClientCertificate)
      return new ConnectorError('tls', `TLS: ${host} broke off the handshake: ${certificateHint}`, false, details);
    return new ConnectorError('tls', `TLS: ${host} broke off the handshake: is the port an HTTPS port?`, true, details);
  }
  if (presentsClientCertificate && /other side closed/.test(text)) {
    // With TLS 1.3 the server checks the client certificate after the client has finished its side of
    // the handshake; a server that refuses it without an alert just closes before answering.
    return new ConnectorError(
      'tls',
      `TLS: ${host} closed the connection right after the handshake without answering: ${certificateHint}`,
      false,
      details,
    );
  }
  return new ConnectorError('network', `Network error talking to ${host}: ${code ? `${code} ` : ''}${text}`, true, details);
}
