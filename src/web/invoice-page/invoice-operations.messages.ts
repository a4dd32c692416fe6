// The messages of the invoice page's operations (edit, confirm a shipment, ship a reminder again, the
// statement of claim), in German and English: part of the `invoicePage` area as `ops`.

export const opsDe = {
  edit: {
    link: 'Rechnung bearbeiten',
    title: 'Rechnung {{number}} bearbeiten',
    intro: 'Ändern Sie die Angaben, die im Status „{{status}}“ noch geändert werden können. Nur geänderte Felder werden gespeichert.',
    locked: 'Im Status „{{status}}“ nicht mehr änderbar:',
    lockedHint: 'Einen geänderten Betrag gleichen Sie mit einer Gutschrift oder einer Zahlung aus.',
    none: 'Im Status „{{status}}“ kann an dieser Rechnung nichts mehr geändert werden.',
    submit: 'Änderungen speichern',
    invoice_number: 'Rechnungsnummer',
    additional_number: 'Zusätzliche Nummer (z. B. Bestellnummer)',
    external_id: 'Externe ID (z. B. aus dem ERP)',
    invoice_date: 'Rechnungsdatum',
    due_date: 'Fälligkeitsdatum',
    total: 'Rechnungsbetrag brutto (z. B. 1190,00)',
  },
  shipping: {
    confirmInvoice: 'Versand bestätigen',
    confirmReminder: 'Versand bestätigen',
    shipAgain: 'Erneut versenden',
    confirmInvoiceTitle: 'Versand der Rechnung {{number}} bestätigen',
    confirmReminderTitle: 'Versand der Mahnung {{stage}} zur Rechnung {{number}} bestätigen',
    shipAgainTitle: 'Mahnung {{stage}} zur Rechnung {{number}} erneut versenden',
    confirmInvoiceText:
      'Sie bestätigen, dass Sie den Brief mit der Rechnung selbst gedruckt und versandt haben. Die Rechnung gilt ab jetzt als versendet; ab dem Fälligkeitsdatum {{due}} läuft das Mahnwesen.',
    confirmReminderText:
      'Sie bestätigen, dass Sie die Mahnung {{stage}} selbst gedruckt und versandt haben. Die Mahnung gilt ab jetzt als versendet; der offene Betrag von {{open}} wird weiter gemahnt.',
    shipAgainText:
      'Die Mahnung {{stage}} wird noch einmal auf dem Versandweg des Kunden verschickt (E-Mail, Post oder beides). Bitte beheben Sie vorher die Ursache des letzten Fehlschlags.',
    letter: 'Vorher den Brief ansehen (PDF)',
    customer: 'Versandart, Adresse und E-Mail-Adressen des Kunden {{name}} prüfen',
    submitConfirm: 'Ja, Versand bestätigen',
    submitShip: 'Ja, erneut versenden',
    unavailable: 'Dafür wartet im Moment nichts: Der Versand ist bereits bestätigt, läuft gerade oder ist nicht möglich.',
    statementOfClaim: 'Forderungsaufstellung',
    column: 'Versand',
  },
  notice: {
    edited: 'Die Änderungen wurden gespeichert.',
    unchanged: 'Sie haben nichts geändert.',
    shippingConfirmed: 'Der Versand wurde bestätigt.',
    reminderShipping: 'Die Mahnung wird erneut versendet.',
  },
  errors: {
    invoice_number: 'Die Rechnungsnummer ist zu lang (höchstens 100 Zeichen) oder enthält unzulässige Zeichen.',
    additional_number: 'Die Nummer ist zu lang (höchstens 255 Zeichen) oder enthält unzulässige Zeichen.',
    invoice_date: 'Bitte ein gültiges Datum angeben.',
    due_date: 'Bitte ein gültiges Datum angeben, nicht vor dem Rechnungsdatum.',
    total: 'Bitte einen gültigen Betrag angeben, z. B. 1190,00.',
  },
};

export const opsEn: typeof opsDe = {
  edit: {
    link: 'Edit invoice',
    title: 'Edit invoice {{number}}',
    intro: 'Change what status “{{status}}” still allows to change. Only the fields you change are saved.',
    locked: 'No longer changeable in status “{{status}}”:',
    lockedHint: 'Settle a changed amount with a credit note or a payment.',
    none: 'Nothing on this invoice can change any more in status “{{status}}”.',
    submit: 'Save changes',
    invoice_number: 'Invoice number',
    additional_number: 'Additional number (e.g. order number)',
    external_id: 'External ID (e.g. from the ERP)',
    invoice_date: 'Invoice date',
    due_date: 'Due date',
    total: 'Gross invoice amount (e.g. 1190.00)',
  },
  shipping: {
    confirmInvoice: 'Confirm shipping',
    confirmReminder: 'Confirm shipping',
    shipAgain: 'Ship again',
    confirmInvoiceTitle: 'Confirm shipping of invoice {{number}}',
    confirmReminderTitle: 'Confirm shipping of reminder {{stage}} for invoice {{number}}',
    shipAgainTitle: 'Ship reminder {{stage}} for invoice {{number}} again',
    confirmInvoiceText:
      'You confirm that you printed and posted the invoice letter yourself. The invoice counts as sent from now on; dunning starts after the due date {{due}}.',
    confirmReminderText:
      'You confirm that you printed and posted reminder {{stage}} yourself. The reminder counts as sent from now on; the open amount of {{open}} stays in dunning.',
    shipAgainText:
      'Reminder {{stage}} is shipped once more the customer’s way (e-mail, post or both). Please fix the cause of the last failure first.',
    letter: 'View the letter first (PDF)',
    customer: 'Check the shipping mode, address and e-mail addresses of customer {{name}}',
    submitConfirm: 'Yes, confirm shipping',
    submitShip: 'Yes, ship again',
    unavailable: 'Nothing waits for this right now: the shipping is confirmed already, under way, or not possible.',
    statementOfClaim: 'Statement of claim',
    column: 'Shipping',
  },
  notice: {
    edited: 'Your changes have been saved.',
    unchanged: 'You did not change anything.',
    shippingConfirmed: 'The shipping has been confirmed.',
    reminderShipping: 'The reminder is being shipped again.',
  },
  errors: {
    invoice_number: 'The invoice number is too long (at most 100 characters) or contains characters that are not allowed.',
    additional_number: 'The number is too long (at most 255 characters) or contains characters that are not allowed.',
    invoice_date: 'Please enter a valid date.',
    due_date: 'Please enter a valid date, not before the invoice date.',
    total: 'Please enter a valid amount, e.g. 1190.00.',
  },
};
