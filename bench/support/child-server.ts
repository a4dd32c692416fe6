// HTTP servers under test run in child processes: one process per server, so that each one's peak RSS
// is its own and the load generator (in the bench's main process) never shares its event loop.
// Protocol over IPC: the child sends {listening, port}; the parent may send 'usage' (answered with the
// CPU time used so far) and finally 'stop'; the child closes and answers {stopped, peakRssKb}, then exits.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** CPU time the server process has used so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  /** Closes the server and returns the process's peak resident set size in MB. */
  stop(): Promise<{ peakRssMb: number }>;
}

export interface ChildServerOptions {
  /** Extra node flags, e.g. --cpu-prof. */
  execArgv?: string[];
  startTimeoutMs?: number;
}

type FromChild =
  | { type: 'listening'; port: number }
  | { type: 'usage'; cpuMicros: number }
  | { type: 'stopped'; peakRssKb: number }
  | { type: 'failed'; error: string };
type ToChild = 'usage' | 'stop';

/**
 * Node flags of every server the bench starts, service and bare alike: those the service runs with in
 * production (package.json start, Dockerfile), so figures are the production ones and comparisons fair.
 */
const RUNTIME_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=50'];

/** Forks `entry` (a compiled module URL that calls serveForParent) with `options` as JSON argument. */
export function startChildServer(entry: URL, options: object, childOptions: ChildServerOptions = {}): Promise<ChildServer> {
  // stdout goes to /dev/null ('ignore'): a service logging at info writes its lines there, as to a log pipe.
  const child = fork(fileURLToPath(entry), [JSON.stringify(options)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: [...RUNTIME_FLAGS, ...(childOptions.execArgv ?? [])],
  });
  const next = <T extends FromChild['type']>(type: T, timeoutMs: number) =>
    new Promise<Extract<FromChild, { type: T }>>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`${entry.pathname}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message: FromChild) => {
        if (message.type === type) done(undefined, message as Extract<FromChild, { type: T }>);
        else if (message.type === 'failed') done(new Error(`${entry.pathname}: ${message.error}`));
      };
      const onExit = (code: number | null) => done(new Error(`${entry.pathname} exited (${code}) before '${type}'`));
      function done(error?: Error, message?: Extract<FromChild, { type: T }>) {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (error) {
          child.kill('SIGKILL');
          reject(error);
        } else resolve(message!);
      }
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return next('listening', childOptions.startTimeoutMs ?? 60_000).then(({ port }) => ({
    origin: `http://127.0.0.1:${port}`,
    async cpuMs() {
      const usage = next('usage', 10_000);
      child.send('usage' satisfies ToChild);
      return (await usage).cpuMicros / 1000;
    },
    async stop() {
      const stopped = next('stopped', 30_000);
      child.send('stop' satisfies ToChild);
      const { peakRssKb } = await stopped;
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      return { peakRssMb: Math.round(peakRssKb / 1024) };
    },
  }));
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** The child side: starts the server with the options the parent passed and obeys 'stop'. */
export function serveForParent<T>(start: (options: T) => Promise<Listening>): void {
  if (!process.send) throw new Error(`${process.argv[1]} is a server for the bench to fork, not to import or run directly`);
  const send = (message: FromChild) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
  const options = JSON.parse(process.argv[2] ?? '{}') as T;
  // The parent went away (Ctrl-C, crash): do not outlive it.
  process.once('disconnect', () => process.exit(1));
  start(options).then(
    (server) => {
      const obey = async (message: ToChild) => {
        if (message === 'usage') {
          const { user, system } = process.cpuUsage();
          await send({ type: 'usage', cpuMicros: user + system });
          return;
        }
        await server.close().catch(() => undefined);
        await send({ type: 'stopped', peakRssKb: process.resourceUsage().maxRSS });
        process.exit(0);
      };
      process.on('message', (message: ToChild) => void obey(message));
      void send({ type: 'listening', port: server.port });
    },
    async (error: unknown) => {
      await send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      process.exit(1);
    },
  );
}
