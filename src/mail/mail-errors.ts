// What a failed send means for the delivery: retry later (4xx, timeouts, a dropped connection) or give
// up now (5xx: the server refused the recipient or the message for good).

export class MailError extends Error {
  constructor(
    message: string,
    /** true: retrying will not help; false: try again later. */
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** Error codes of nodemailer (and of the socket beneath) that say "not now" rather than "never". */
const TRANSIENT_CODES = new Set([
  'ETIMEDOUT',
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
  'EPROTOCOL',
  'ETLS',
  'EAUTH',
]);
/** Errors about the message itself: sending it again gives the same answer. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

interface NodemailerError {
  message?: string;
  code?: string;
  responseCode?: number;
}

export function classifySmtpError(error: unknown): MailError {
  if (error instanceof MailError) return error;
  const e = (error ?? {}) as NodemailerError;
  // The code says what kind of trouble it was ("Greeting never received" is a timeout: ETIMEDOUT).
  const text = e.message ?? String(error);
  const message = e.code && !text.includes(e.code) ? `${text} (${e.code})` : text;
  const reply = e.responseCode;
  if (typeof reply === 'number' && reply >= 500 && reply < 600) return new MailError(message, true, reply);
  if (typeof reply === 'number' && reply >= 400 && reply < 500) return new MailError(message, false, reply);
  if (e.code && PERMANENT_CODES.has(e.code)) return new MailError(message, true);
  if (e.code && TRANSIENT_CODES.has(e.code)) return new MailError(message, false);
  // Unknown trouble is retried: a delivery given up too early is worse than one more attempt.
  return new MailError(message, false);
}
