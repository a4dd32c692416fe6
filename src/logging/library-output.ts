// Libraries that write to the console (pdf-lib warns about damaged object references with console.warn)
// would put plain text into the JSON log stream. Their output goes through the service's logger instead:
// as JSON lines, under the request's id while a request is handled.
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';
import { pino, type Logger } from 'pino';
import { currentRequestLogger } from './request-logger.js';

let serviceLogger: Logger | undefined;
/** The warnings of the withLibraryWarnings call the current code runs in. */
const capturing = new AsyncLocalStorage<string[]>();

/** The logger library output goes to when no request is being handled (createApp sets the service's). */
export function setLibraryLogger(logger: Logger): void {
  serviceLogger = logger;
}

function target(): Logger {
  serviceLogger ??= pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
  return currentRequestLogger() ?? serviceLogger;
}

type ConsoleMethod = 'log' | 'info' | 'debug' | 'warn' | 'error';
const LEVELS = { log: 'info', info: 'info', debug: 'debug', warn: 'warn', error: 'error' } as const;

/**
 * The service process's console (src/main.ts): every console line any library writes becomes a JSON
 * log line with `context: "console"`. Not for the test runner or the CLI, whose console is their own.
 */
export function routeConsoleToLogger(): void {
  for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
    console[method] = (...args: unknown[]) => {
      const warnings = method === 'warn' ? capturing.getStore() : undefined;
      if (warnings) warnings.push(format(...args));
      else target()[LEVELS[method]]({ context: 'console' }, format(...args));
    };
  }
}

let wrapper: typeof console.warn | undefined;

/**
 * Runs work that calls a library writing warnings to the console, and logs what it wrote as one warn
 * line naming the library and what the caller was doing. Concurrent calls keep their warnings apart
 * (each collects its own, by async context); console.warn outside such a call is left as it is.
 */
export async function withLibraryWarnings<T>(library: string, doing: string, work: () => Promise<T>): Promise<T> {
  if (console.warn !== wrapper) {
    const outside = console.warn;
    wrapper = (...args: unknown[]) => {
      const warnings = capturing.getStore();
      if (warnings) warnings.push(format(...args));
      else Reflect.apply(outside, console, args);
    };
    console.warn = wrapper;
  }
  const warnings: string[] = [];
  try {
    return await capturing.run(warnings, work);
  } finally {
    if (warnings.length > 0) target().warn({ context: library, warnings }, `${library} warned while ${doing}`);
  }
}
