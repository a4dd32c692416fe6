// The dashboard's "needs you" counters, in German and English (area `needsYou` of the catalogue).
// English has exactly the German keys (`satisfies`); no import of catalogue.ts's AreaMessages, which would be a cycle.

const de = {
  title: 'Zu erledigen',
  what: 'Was',
  count: 'Anzahl',
  nothing: 'nichts zu tun',
  shipments: 'Sendungen mit Handlungsbedarf',
  approvals: 'Mahnvorschläge zur Freigabe',
  deadLetters: 'Push-Dokumente im Dead-Letter-Bereich',
  failedPulls: 'Fehlgeschlagene ERP-Abrufe',
  blocked: 'Rechnungen mit Mahnsperre',
};

export const needsYouMessages = {
  de,
  en: {
    title: 'To do',
    what: 'What',
    count: 'Count',
    nothing: 'nothing to do',
    shipments: 'Shipments needing attention',
    approvals: 'Dunning proposals awaiting approval',
    deadLetters: 'Dead-lettered push documents',
    failedPulls: 'Failed ERP pulls',
    blocked: 'Invoices blocked for dunning',
  } satisfies typeof de,
};
