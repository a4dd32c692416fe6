// The service's replicas as production runs them: `node dist/src/main.js` (built by `npm run build`),
// APP_ENV=production, each on a port of its own, logging JSON lines into a file per replica.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export class Replica {
  private child?: ChildProcess;
  /** Exits nobody asked for (a crash), and starts after the first. */
  unexpectedExits = 0;
  restarts = 0;
  private expectingExit = false;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const log = createWriteStream(join(this.logDir, `${this.name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, ['--max-semi-space-size=32', '--heap-growing-percent=50', MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        ...this.env,
        // Each replica names itself in EHLO, so that the SMTP server can tell whose every copy of a mail is.
        SMTP_HELO_NAME: `${this.name}.cluster.test`,
        ...(this.env.DATABASE_URL ? { DATABASE_URL: named(this.env.DATABASE_URL, this.name) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    child.once('exit', () => {
      if (!this.expectingExit) this.unexpectedExits++;
    });
    this.expectingExit = false;
    this.child = child;
    await this.waitUntil('/health/ready', 90_000);
  }

  /** kill -9: no shutdown hook runs, in-flight work is left as a crash leaves it. */
  kill(): void {
    this.expectingExit = true;
    this.child?.kill('SIGKILL');
  }

  async restart(): Promise<void> {
    this.restarts++;
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async status(path: string): Promise<number> {
    try {
      const res = await fetch(`${this.origin}${path}`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  async waitUntil(path: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.status(path)) !== 200) {
      if (!this.running()) throw new Error(`replica ${this.name} exited during start; see ${join(this.logDir, `${this.name}.log`)}`);
      if (Date.now() > deadline) throw new Error(`replica ${this.name}: ${path} not 200 within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The replica's connections carry its name (pg_stat_activity.application_name), so the test can tell whose a waiting statement is. */
function named(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}
