// Reads the runnable examples of README.md for the doc test (test/platform/readme.e2e-spec.ts): the
// fenced ```sh blocks, each cut into commands with the answer documented under them, and compares an
// answer with the documented one.

export interface Step {
  /** The README line the command starts on (1-based), for the failure message. */
  line: number;
  /** `export NAME="value"`: sets a variable for the commands after it. */
  kind: 'command' | 'export';
  text: string;
  /** `# → <status> [<body>]` under the command; `# → soon <status> …`: once background work is done. */
  answer?: { status: number; body?: string; soon: boolean };
}

const ANSWER = /^#\s*→\s*(soon\s+)?(\d{3})(?:\s+(.*))?$/;

/** The ```sh blocks of a Markdown text, in order, as steps. */
export function readmeSteps(markdown: string): Step[] {
  const lines = markdown.split('\n');
  const steps: Step[] = [];
  let inSh = false;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const fence = /^\s*```(\S*)/.exec(raw);
    if (fence) {
      if (inFence) {
        inFence = inSh = false;
      } else {
        inFence = true;
        inSh = fence[1] === 'sh';
      }
      continue;
    }
    if (!inSh) continue;
    const line = raw.trim();
    if (line === '') continue;
    const answer = ANSWER.exec(line);
    if (answer) {
      const last = steps.at(-1);
      if (!last || last.kind !== 'command' || last.answer) throw new Error(`README.md:${i + 1}: an answer without its command`);
      let body = answer[3];
      // Continuation lines of a long answer: "#   …" (the hash, then at least three spaces).
      while (body !== undefined && i + 1 < lines.length && /^\s*#\s{3,}\S/.test(lines[i + 1]))
        body += ` ${lines[++i].trim().slice(1).trim()}`;
      last.answer = { status: Number(answer[2]), body, soon: answer[1] !== undefined };
      continue;
    }
    if (line.startsWith('#')) continue;
    let text = line;
    const start = i + 1;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
    steps.push({ line: start, kind: line.startsWith('export ') ? 'export' : 'command', text });
  }
  return steps;
}

/**
 * Whether an answer matches the documented one. The README shows answers shortened: fields left out are
 * not compared, a string ending in "…" stands for every string that begins like it ("…" alone: any
 * value); arrays are compared item by item and must have as many items. Returns the first difference.
 */
export function difference(expected: unknown, actual: unknown, path = '$'): string | null {
  if (typeof expected === 'string' && expected.endsWith('…')) {
    if (expected === '…') return null;
    return typeof actual === 'string' && actual.startsWith(expected.slice(0, -1))
      ? null
      : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return `${path}: expected ${expected.length} items, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const found = difference(expected[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${path}.${key}: missing in ${JSON.stringify(actual)}`;
      const found = difference(value, (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}
