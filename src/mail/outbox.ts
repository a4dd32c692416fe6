// The development outbox: each e-mail as an .eml file, named after its Message-ID, so that a newcomer
// without an SMTP server sees what would have been sent (any mail program opens .eml files).
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file name from the Message-ID: the same message written again replaces its file. */
export function outboxFileName(messageId: string): string {
  return `${messageId.replace(/^<|>$/g, '').replace(/[^\w.@-]+/g, '_')}.eml`;
}

export async function writeToOutbox(dir: string, messageId: string, raw: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, outboxFileName(messageId));
  const temp = join(dir, `.${randomUUID()}.tmp`);
  await writeFile(temp, raw, { mode: 0o640 });
  await rename(temp, path);
  return path;
}
