// A real SMTP server in the test process (smtp-server): STARTTLS with the test certificate in tls/,
// login required, every received message parsed with mailparser. It can refuse the next attempts or
// all of them with a reply code (451: try later, 550: rejected for good).
import { type ParsedMail, simpleParser } from 'mailparser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export const SMTP_CA_FILE = fileURLToPath(new URL('./tls/smtp-test.crt', import.meta.url));
const KEY = readFileSync(fileURLToPath(new URL('./tls/smtp-test.key', import.meta.url)));
const USER = 'mailer';
const PASSWORD = 'S3cret!smtp';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** Whether the session was upgraded with STARTTLS, and the TLS version negotiated. */
  secure: boolean;
  tlsVersion: string | null;
}

export interface TestSmtp {
  /** smtp://user:password@127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** Every MAIL FROM seen, refused or not: one per delivery attempt. */
  attempts: number;
  /** The next `count` attempts are refused at RCPT TO with `code`. */
  refuseNext(count: number, code: number): void;
  refuseAll(code: number): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  let refusals = 0;
  let refusalCode = 451;
  const state = { received: [] as ReceivedMail[], attempts: 0 };
  const server = new SMTPServer({
    key: KEY,
    cert: readFileSync(SMTP_CA_FILE),
    minVersion: 'TLSv1.2',
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: [],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onMailFrom(_address, _session, callback) {
      state.attempts++;
      callback();
    },
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals--;
        const text = refusalCode >= 500 ? 'Recipient address rejected: mailbox unavailable' : 'Requested action aborted: try again later';
        return callback(Object.assign(new Error(text), { responseCode: refusalCode }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            state.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
              secure: session.secure,
              tlsVersion: session.tlsOptions ? session.tlsOptions.version ?? null : null,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`,
    get received() {
      return state.received;
    },
    get attempts() {
      return state.attempts;
    },
    refuseNext(count, code) {
      refusals = count;
      refusalCode = code;
    },
    refuseAll(code) {
      refusals = Number.MAX_SAFE_INTEGER;
      refusalCode = code;
    },
    reset() {
      refusals = 0;
      state.received = [];
      state.attempts = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
