// A real SMTP server in the test process (smtp-server): STARTTLS with the test certificate in tls/,
// login required, every received message parsed with mailparser. It can refuse the next attempts or
// all of them with a reply code (451: try later, 550: rejected for good), and hold the reply to a
// message. The service reaches it through a TCP front on a fixed port that can go down (connection
// refused: nothing listens) or hang (connections accepted, never greeted), and come back.
import { type ParsedMail, simpleParser } from 'mailparser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
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
  /** The name the client gave in EHLO (the cluster's replicas each give their own). */
  heloName: string;
  /** When the message was received (Date.now()), before the server's reply to it. */
  receivedAt: number;
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
  /** up: forwards to the SMTP server; down: nothing listens (ECONNREFUSED); hang: accepts and says nothing. */
  setMode(mode: FrontMode): Promise<void>;
  /** Holds the reply to the next message received until the returned function is called (the message counts as received). */
  holdNextReply(): { received: Promise<void>; release: () => void };
  reset(): Promise<void>;
  close(): Promise<void>;
}

export type FrontMode = 'up' | 'down' | 'hang';

export async function startTestSmtp(): Promise<TestSmtp> {
  let hold: { received: () => void; released: Promise<void> } | null = null;
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
        const receivedAt = Date.now();
        const raw = Buffer.concat(chunks);
        const held = hold;
        hold = null;
        simpleParser(raw)
          .then(async (parsed) => {
            state.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
              secure: session.secure,
              tlsVersion: session.tlsOptions ? (session.tlsOptions.version ?? null) : null,
              heloName: session.hostNameAppearsAs,
              receivedAt,
            });
            if (held) {
              held.received();
              await held.released;
            }
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: smtpPort } = server.server.address() as AddressInfo;
  const front = await startFront(smtpPort);
  return {
    url: `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${front.port}`,
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
    setMode: (mode) => front.setMode(mode),
    holdNextReply() {
      let release!: () => void;
      let received!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const receivedPromise = new Promise<void>((resolve) => (received = resolve));
      hold = { received, released };
      return { received: receivedPromise, release };
    },
    async reset() {
      refusals = 0;
      hold = null;
      state.received = [];
      state.attempts = 0;
      await front.setMode('up');
    },
    async close() {
      await front.setMode('down');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The TCP front the service connects to: forwards to the SMTP server, or is down, or hangs. */
async function startFront(smtpPort: number) {
  const sockets = new Set<Socket>();
  let mode: FrontMode = 'up';
  let listener: Server | null = null;
  let port = 0;
  const listen = async () => {
    const next = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      if (mode === 'hang') return;
      const upstream = connect(smtpPort, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        socket.destroy();
      });
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    listener = next;
  };
  await listen();
  return {
    port,
    async setMode(next: FrontMode) {
      if (next === mode && (next === 'down') === (listener === null)) return;
      mode = next;
      // Every open connection ends: a hanging client errors at once instead of waiting for its timeout.
      for (const socket of sockets) socket.destroy();
      if (next === 'down' && listener) {
        const closing = listener;
        listener = null;
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      } else if (next !== 'down' && !listener) await listen();
    },
  };
}
