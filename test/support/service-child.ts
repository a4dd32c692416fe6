// Starts the service in a child process (TypeScript run through ts-register.mjs), so that a test can
// SIGKILL it like a crashing container and start it again on the same database.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ServiceChild {
  origin: string;
  process: ChildProcess;
  /** Everything the process wrote to stdout and stderr (its log lines). */
  output(): string;
  kill(): Promise<void>;
  alive(): boolean;
}

const ENTRY = fileURLToPath(new URL('./service.child.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('./ts-register.mjs', import.meta.url));

export function startServiceChild(databaseUrl: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceChild> {
  const child = fork(ENTRY, [JSON.stringify({ databaseUrl, env })], {
    execArgv: ['--import', REGISTER, '--no-warnings'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => chunks.push(c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start in ${timeoutMs} ms:\n${chunks.join('')}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before listening:\n${chunks.join('')}`));
    });
    child.on('message', (message: { type: string; port: number }) => {
      if (message.type !== 'listening') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        origin: `http://127.0.0.1:${message.port}`,
        process: child,
        output: () => chunks.join(''),
        alive: () => child.exitCode === null && child.signalCode === null,
        kill: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}
