// The service as `npm start` runs it: src/main.ts (through ts-register.mjs, no build) in a child process
// with only the environment an operator sets, on a free port, logging to stdout. Unlike
// service-child.ts nothing is silenced (no --no-warnings), so a test sees every line a process writes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('./ts-register.mjs', import.meta.url));

export interface ServiceProcess {
  origin: string;
  process: ChildProcess;
  /** stdout so far: the JSON log lines. */
  stdout(): string;
  stderr(): string;
  /** The stdout lines parsed (a line that is not JSON fails the parse, on purpose). */
  lines(): Record<string, unknown>[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startServiceProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', REGISTER, MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c.toString()));
  child.stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const service: ServiceProcess = {
    origin: `http://127.0.0.1:${port}`,
    process: child,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
    lines: () =>
      out
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  const live = () =>
    fetch(`${service.origin}/health/live`).then(
      (res) => res.ok,
      () => false,
    );
  while (!(await live())) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${service.stdout()}${service.stderr()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start in ${timeoutMs} ms:\n${service.stdout()}${service.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return service;
}
