// Temp files of requests still running when the app shuts down (they never see 'close') are
// removed by the interceptor's shutdown hook, and stale ones of a dead process by the module.
import { describe, expect, it } from '@jest/globals';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import type { DocumentsConfig } from '../config/documents.config.js';
import { DocumentsModule } from './documents.module.js';
import { PdfUploadInterceptor } from './pdf-upload.js';

let release: () => void = () => undefined;
let entered: () => void = () => undefined;

@Controller('slow')
class SlowController {
  @Post()
  @HttpCode(201)
  @PdfUploadInterceptor([{ name: 'invoice', required: true }])
  async upload() {
    entered();
    await new Promise<void>((resolve) => (release = resolve));
    return {};
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilEmpty(dir: string): Promise<string[]> {
  for (let i = 0; i < 50 && (await readdir(dir)).length > 0; i++) await sleep(20);
  return readdir(dir);
}

describe('PdfUploadInterceptor at shutdown', () => {
  it('removes the temp files of requests still running and sweeps stale ones at start', async () => {
    const work = await mkdtemp(join(tmpdir(), 'pdf-upload-shutdown-spec-'));
    const config: DocumentsConfig = { kind: 'local', dir: join(work, 'documents'), maxUploadMb: 1, uploadDir: join(work, 'uploads') };
    await mkdir(config.uploadDir);
    const stale = join(config.uploadDir, 'upload-00000000-0000-4000-8000-000000000000.pdf');
    const recent = join(config.uploadDir, 'upload-11111111-1111-4111-8111-111111111111.pdf');
    const foreign = join(config.uploadDir, 'notes.txt');
    for (const path of [stale, recent, foreign]) await writeFile(path, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await utimes(foreign, twoHoursAgo, twoHoursAgo);

    @Module({ imports: [DocumentsModule.forConfig(config)], controllers: [SlowController] })
    class SlowModule {}
    const app = await NestFactory.create(SlowModule, { logger: false, bodyParser: false });
    await app.init();
    expect((await readdir(config.uploadDir)).sort()).toEqual(['notes.txt', 'upload-11111111-1111-4111-8111-111111111111.pdf']);
    await rm(recent);
    await rm(foreign);

    const doc = await PDFDocument.create();
    doc.addPage();
    const pdf = Buffer.from(await doc.save());
    const handlerRunning = new Promise<void>((resolve) => (entered = resolve));
    const response = request(app.getHttpServer())
      .post('/slow')
      .attach('invoice', pdf, 'r.pdf')
      .then((res) => res.status);
    await handlerRunning;
    expect(await readdir(config.uploadDir)).toHaveLength(1);

    const closing = app.close();
    expect(await untilEmpty(config.uploadDir)).toEqual([]);
    release();
    expect(await response).toBe(201);
    await closing;
    await rm(work, { recursive: true, force: true });
  });
});
