// Censors credentials one level down in a log line's objects (a DTO, an options object, headers), as
// pino's `*.password`-style redact paths did. Those wildcard paths ran pino's redaction over every key of
// every line and of every request's child-logger bindings (about 15 µs per request, even at `silent`);
// this is one pass over the keys, copying only what holds a secret. The top level and `err` stay with
// pino's exact redact paths (logger.ts), which run only on lines that carry the key, child-logger
// bindings included; `req` and `res` are reduced by their serializers. Nested objects in child bindings
// are not looked into (pino applies no log formatter to them): the service binds only the request id
// and the request.

export const SECRET_FIELDS = [
  'password',
  'client_secret',
  'secret',
  'api_token',
  'api_key',
  'token',
  'access_token',
  'refresh_token',
  'authorization',
  'cookie',
];

export const CENSOR = '[redacted]';

const SECRETS = new Set(SECRET_FIELDS);
const HEADER_SECRETS = new Set(['authorization', 'cookie', 'set-cookie']);

/** Keys whose values the service's serializers (req, res: logger.ts) or pino's exact redact paths (err) already reduce. */
const HANDLED_BY_PINO = new Set(['req', 'res', 'err']);

type Bag = Record<string, unknown>;

const isInspectable = (value: unknown): value is Bag =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof Date);

/**
 * The line's object with every secret field of its nested objects (and the authorization and cookie
 * headers of a nested `headers`) replaced by the censor; the object itself when none holds one.
 */
export function censorNestedSecrets(line: Bag): Bag {
  let copy: Bag | undefined;
  for (const key of Object.keys(line)) {
    const value = line[key];
    if (HANDLED_BY_PINO.has(key) || !isInspectable(value)) continue;
    const censored = censorFields(value, SECRETS, true);
    if (censored !== value) (copy ??= { ...line })[key] = censored;
  }
  return copy ?? line;
}

function censorFields(bag: Bag, secrets: Set<string>, withHeaders: boolean): Bag {
  let copy: Bag | undefined;
  for (const key of Object.keys(bag)) {
    const value = bag[key];
    let censored = value;
    if (secrets.has(key)) censored = value === undefined ? value : CENSOR;
    else if (withHeaders && key === 'headers' && isInspectable(value)) censored = censorFields(value, HEADER_SECRETS, false);
    if (censored !== value) (copy ??= { ...bag })[key] = censored;
  }
  return copy ?? bag;
}
