// The web app's one stylesheet (served as /assets/web-<hash>.css): readable tables, visible focus,
// contrast of at least 4.5:1 for text.
export const STYLESHEET = `
:root{--ink:#1b1f24;--muted:#4a5360;--line:#d5dae1;--bg:#f6f7f9;--card:#fff;--accent:#0b5cad;--warn:#8a3b00;--bad:#a1121f}
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
body{margin:0}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px}
.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem;z-index:1}
header.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1.5rem;background:#14263d;color:#fff}
header.top a,header.top .company{color:#fff}
header.top nav ul{display:flex;flex-wrap:wrap;gap:.75rem 1.25rem;list-style:none;margin:0;padding:0;align-items:center}
header.top form{display:inline;margin:0}
header.top button{background:none;border:1px solid #9fb3c8;color:#fff;border-radius:4px;padding:.2rem .7rem;cursor:pointer;font:inherit}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
section.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:1rem 1.25rem;margin-bottom:1.25rem;overflow-x:auto}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1.25rem}
.figure{font-size:1.8rem;font-weight:600}
.figure.overdue{color:var(--bad)}
.sub{color:var(--muted)}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.25rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
.status{display:inline-block;padding:.1rem .6rem;border-radius:999px;background:#e3ecf7;color:#0a3d73;font-weight:600}
.notice{padding:.6rem .9rem;border-radius:4px;background:#e3ecf7;margin-bottom:1rem}
.error{padding:.6rem .9rem;border-radius:4px;background:#fbe5e7;color:var(--bad);margin-bottom:1rem}
svg.chart{width:100%;height:auto;max-height:14rem;margin-bottom:1rem}
form.sign-in{max-width:24rem;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:1.25rem}
form.sign-in label{display:block;margin:.8rem 0 .25rem;font-weight:600}
form.sign-in input{width:100%;padding:.5rem;border:1px solid #7a8594;border-radius:4px;font:inherit}
form.sign-in button{margin-top:1.2rem;padding:.5rem 1.2rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
nav.tabs ul{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;list-style:none;margin:0 0 1rem;padding:0}
form.dunning label{display:block;font-weight:600;margin:.6rem 0 .2rem}
form.dunning input,form.dunning select,form.dunning textarea{padding:.4rem;border:1px solid #7a8594;border-radius:4px;font:inherit;max-width:100%}
form.dunning textarea{width:100%;min-height:5rem}
form.dunning button{margin:.6rem .6rem 0 0;padding:.45rem 1.1rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
form.dunning button.secondary{background:#fff;color:var(--accent);border:1px solid var(--accent)}
form.dunning fieldset{border:1px solid var(--line);border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}
form.dunning .inline{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:flex-end}
.help{color:var(--muted);font-size:.9rem;margin:.15rem 0 0}
.field-error{color:var(--bad);font-weight:600;margin:.15rem 0 0}
pre.mail{white-space:pre-wrap;background:var(--bg);border:1px solid var(--line);padding:.75rem;border-radius:4px}
tr.group th{background:#eef1f5}
nav.subnav ul{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;list-style:none;margin:0 0 1rem;padding:0}
nav.subnav a[aria-current=page]{font-weight:600;text-decoration:none}
nav.pager{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-top:.75rem}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:flex-end;margin-bottom:1rem}
.field{display:flex;flex-direction:column;gap:.2rem;margin-bottom:.5rem}
.field input,.field select{padding:.35rem .5rem;border:1px solid #7a8594;border-radius:4px;font:inherit}
.field-error{color:var(--bad);margin:0;font-size:.9rem}
form.inline{display:inline-block;margin:0 .5rem .5rem 0}
form.fix{margin:.5rem 0}
details summary{cursor:pointer;color:var(--accent)}
button.danger{color:var(--bad)}
form.list-search{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:center;margin-bottom:1rem}
form.list-search label,form.settings label{font-weight:600}
form.list-search input[type=search]{flex:1 1 16rem;max-width:28rem;padding:.45rem .6rem;border:1px solid #7a8594;border-radius:4px;font:inherit}
form.list-search button,form.settings button{padding:.45rem 1.1rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
form.list-search .sub{flex-basis:100%}
table.list thead th{position:sticky;top:0;background:var(--card)}
a.sort{color:inherit;text-decoration:none}
a.sort:hover,a.sort:focus-visible{text-decoration:underline}
td.overdue{color:var(--bad);font-weight:600}
form.settings .field{margin-bottom:1rem}
form.settings .field.check{display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem;align-items:center}
form.settings .field.check .sub,form.settings .field.check .field-error{grid-column:2}
form.settings select{display:block;margin-top:.25rem;padding:.4rem;border:1px solid #7a8594;border-radius:4px;font:inherit}
form.settings .sub{margin:.2rem 0 0}
form.settings [aria-invalid=true]{border-color:var(--bad);outline:2px solid var(--bad)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
form.stack{max-width:32rem;margin-top:1rem}
form.stack .field{margin-bottom:.8rem}
form.stack label{display:block;margin-bottom:.25rem;font-weight:600}
form.stack input[type=text],form.stack input[type=date],form.stack textarea{width:100%;padding:.45rem;border:1px solid #7a8594;border-radius:4px;font:inherit}
form.stack [aria-invalid=true]{border-color:var(--bad)}
form.stack .check{display:flex;gap:.5rem;align-items:center;margin-bottom:.8rem}
form.stack .check label{font-weight:400;margin:0}
.field-error{color:var(--bad);margin:.25rem 0 0}
form.stack button,a.button{display:inline-block;padding:.45rem 1rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer;text-decoration:none}
.buttons{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
ul.actions{display:flex;flex-wrap:wrap;gap:.6rem;list-style:none;margin:0;padding:0}
ul.plain{list-style:none;margin:0;padding:0}
ul.plain li{margin-bottom:.4rem}
#amounts dl.facts{grid-template-columns:minmax(0,1fr) max-content}
form.invoice-filters .fields{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.75rem 1.25rem;align-items:end}
form.invoice-filters label{display:block;font-weight:600;margin-bottom:.25rem}
form.invoice-filters input:not([type=checkbox]),form.invoice-filters select{width:100%;padding:.4rem;border:1px solid #7a8594;border-radius:4px;font:inherit;background:#fff}
form.invoice-filters .check{display:flex;gap:.5rem;align-items:center}
form.invoice-filters .check label{margin:0}
form.invoice-filters .actions{display:flex;gap:1rem;align-items:center;margin-top:1rem}
form.invoice-filters button{padding:.45rem 1.2rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
th[aria-sort=ascending] a::after{content:" \\25B2"}
th[aria-sort=descending] a::after{content:" \\25BC"}
nav.pages ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0;margin:1rem 0 0}
/* dunning workbench: the charge headings wrap and the invoice numbers do not, so ten columns fit the page */
table[data-table=proposal] th.num,table[data-table=waiting] th.num{white-space:normal}
table[data-table=proposal] td a,table[data-table=waiting] td a{white-space:nowrap}
/* roles: the dunning policy as a member reads it (the same fields disabled, without a form) */
div.dunning label{display:block;font-weight:600;margin:.6rem 0 .2rem}
div.dunning input,div.dunning select,div.dunning textarea{padding:.4rem;border:1px solid #7a8594;border-radius:4px;font:inherit;max-width:100%}
div.dunning textarea{width:100%;min-height:5rem}
div.dunning fieldset{border:1px solid var(--line);border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}
/* API keys and OAuth applications (src/web/integrations-keys) */
.secret input{width:100%;max-width:40rem;padding:.45rem;font-family:ui-monospace,monospace;border:1px solid #7a8594;border-radius:4px}
.field textarea{padding:.35rem .5rem;border:1px solid #7a8594;border-radius:4px;font:inherit;max-width:40rem}
.key-expiry p{margin:0 0 .3rem}
/* settings: the shipping and company settings forms and the letterhead logo */
.settings-form label,.settings-logo label{display:block;font-weight:600;margin:.6rem 0 .2rem}
.settings-form input,.settings-form select,.settings-form textarea,.settings-logo input{padding:.4rem;border:1px solid #7a8594;border-radius:4px;font:inherit;max-width:100%}
.settings-form input[type=text],.settings-form input[type=email],.settings-form textarea{width:32rem}
.settings-form fieldset{border:1px solid var(--line);border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}
.settings-form button,.settings-logo button{margin:.6rem .6rem 0 0;padding:.45rem 1.1rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
.settings-logo button.secondary{background:#fff;color:var(--accent);border:1px solid var(--accent)}
.settings-form [aria-invalid=true],.settings-logo [aria-invalid=true]{border-color:var(--bad);outline:2px solid var(--bad)}
.settings-logo figure{margin:.5rem 0}
.logo-preview{max-width:50mm;max-height:25mm;border:1px solid var(--line);padding:.25rem;background:#fff}
/* ERP connections (src/web/erp) */
form.erp fieldset{border:1px solid var(--line);border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}
form.erp .field{margin:.6rem 0}
form.erp label{display:block;font-weight:600}
form.erp label.check{display:inline-block;font-weight:400;margin-right:1.25rem}
form.erp input:not([type=checkbox]),form.erp select,form.erp textarea{width:100%;max-width:40rem;font:inherit;padding:.35rem}
form.erp textarea{font-family:monospace;font-size:.85rem}
form.erp details{margin:0 0 1rem}
form.erp button,.erp-actions button{padding:.45rem 1rem;background:var(--accent);color:#fff;border:0;border-radius:4px;font:inherit;cursor:pointer}
.erp-actions{display:flex;flex-wrap:wrap;gap:.6rem;align-items:flex-start;margin-top:1rem}
.erp-actions form{margin:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.25rem;margin:0 0 1rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
dl.figures{display:flex;flex-wrap:wrap;gap:1rem 2rem;margin:0}
dl.figures div{min-width:6rem}
dl.figures dt{color:var(--muted);font-size:.9rem}
dl.figures dd{margin:0;font-size:1.6rem;font-weight:600;font-variant-numeric:tabular-nums}
.status.run-failed{background:#fbe3e3;color:#8a1010}
.status.run-succeeded{background:#e1f3e4;color:#17572a}
`;
