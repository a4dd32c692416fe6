// The server-rendered login-and-consent page of GET /oauth/authorize, and the page for requests that
// cannot be sent back to the client (unknown client, unregistered redirect URI). Everything shown is escaped.

export interface ConsentPage {
  applicationName: string;
  companyName: string;
  /** The authorization request's parameters, sent back as hidden fields. */
  params: Record<string, string>;
  email?: string;
  error?: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0}main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
.error{color:#a40000;background:#fde8e8;padding:.6rem;border-radius:4px}.buttons{display:flex;gap:1rem;margin-top:1.4rem}
button{padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}button[value=allow]{background:#0b5;color:#fff;border:0;border-radius:4px}`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function renderConsentPage(page: ConsentPage): string {
  const hidden = Object.entries(page.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const error = page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : '';
  return layout(
    'Zugriff erlauben',
    `<h1>Zugriff erlauben</h1>
<p><strong>${escapeHtml(page.applicationName)}</strong> möchte im Namen von <strong>${escapeHtml(page.companyName)}</strong>
Belege (Rechnungen, Gutschriften, Zahlungen, Kunden) an den Forderungsservice übertragen.</p>
<p>Melden Sie sich an, um den Zugriff zu erlauben.</p>
${error}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="email">E-Mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(page.email ?? '')}">
<label for="password">Passwort</label><input id="password" name="password" type="password" autocomplete="current-password">
<div class="buttons"><button type="submit" name="decision" value="allow">Erlauben</button>
<button type="submit" name="decision" value="deny" formnovalidate>Ablehnen</button></div>
</form>`,
  );
}

export function renderErrorPage(message: string): string {
  return layout(
    'Anfrage ungültig',
    `<h1>Anfrage ungültig</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p>Die Anwendung, die Sie hierher geschickt hat, ist nicht richtig eingerichtet. Wenden Sie sich an ihren Anbieter.</p>`,
  );
}
