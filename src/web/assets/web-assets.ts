// The web app's files, served by the service itself (no CDN) under names that carry a hash of their
// content: a changed file gets a new name, so every one may be cached for a year.
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { APP_SCRIPT } from './app-script.js';
import { STYLESHEET } from './stylesheet.js';

interface Asset {
  body: Buffer;
  type: string;
}

const require = createRequire(import.meta.url);

function hashedName(base: string, extension: string, body: Buffer): string {
  return `${base}-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`;
}

function build(): { byName: Map<string, Asset>; urls: { stylesheet: string; htmx: string; script: string } } {
  const css = Buffer.from(STYLESHEET, 'utf8');
  const htmx = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'));
  const cssName = hashedName('web', 'css', css);
  const htmxName = hashedName('htmx', 'js', htmx);
  const script = Buffer.from(APP_SCRIPT, 'utf8');
  const scriptName = hashedName('app', 'js', script);
  const byName = new Map<string, Asset>([
    [cssName, { body: css, type: 'text/css; charset=utf-8' }],
    [htmxName, { body: htmx, type: 'text/javascript; charset=utf-8' }],
    [scriptName, { body: script, type: 'text/javascript; charset=utf-8' }],
  ]);
  return { byName, urls: { stylesheet: `/assets/${cssName}`, htmx: `/assets/${htmxName}`, script: `/assets/${scriptName}` } };
}

const assets = build();

/** The current URLs of the stylesheet, htmx and the app's script, for the layout. */
export const ASSET_URLS = assets.urls;

/** GET /assets/<hashed name>: the file with a year-long immutable cache; any other name is a 404. */
export function serveAsset(req: Request, res: Response): void {
  const asset = assets.byName.get(req.path.replace(/^\//, ''));
  if (!asset) {
    res.status(404).type('text/plain').send('Not found');
    return;
  }
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.type(asset.type).send(asset.body);
}
