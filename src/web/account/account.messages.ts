// The account pages' messages (password reset, invitations, team) and their e-mails, German and English.
import { teamMessages } from './team.messages.js';

const de = {
  nav: 'Team',
  password: {
    label: 'Neues Passwort',
    repeat: 'Neues Passwort wiederholen',
    rules: 'Mindestens 12 Zeichen mit Groß- und Kleinbuchstaben, einer Ziffer und einem Sonderzeichen.',
    weak: 'Das Passwort erfüllt die Regeln nicht: mindestens 12 Zeichen mit Groß- und Kleinbuchstaben, einer Ziffer und einem Sonderzeichen.',
    tooLong: 'Das Passwort darf höchstens 200 Zeichen lang sein.',
    mismatch: 'Die beiden Passwörter stimmen nicht überein.',
  },
  email: {
    label: 'E-Mail-Adresse',
    invalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  },
  reset: {
    forgot: 'Passwort vergessen?',
    title: 'Passwort zurücksetzen',
    intro: 'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen einen Link, mit dem Sie ein neues Passwort festlegen.',
    submit: 'Link anfordern',
    sentTitle: 'E-Mail unterwegs',
    sent: 'Wenn es zu dieser E-Mail-Adresse ein Konto gibt, haben wir soeben einen Link zum Zurücksetzen des Passworts dorthin geschickt. Der Link ist eine Stunde gültig und nur einmal verwendbar.',
    formTitle: 'Neues Passwort festlegen',
    account: 'Konto',
    save: 'Passwort speichern',
    invalidTitle: 'Link ungültig',
    invalid: 'Dieser Link ist abgelaufen oder wurde bereits verwendet.',
    again: 'Neuen Link anfordern',
    doneTitle: 'Passwort geändert',
    done: 'Ihr Passwort wurde geändert und Sie sind angemeldet. Alle anderen Sitzungen Ihres Kontos wurden beendet.',
    toDashboard: 'Zur Übersicht',
    backToSignIn: 'Zurück zur Anmeldung',
  },
  tooMany: {
    title: 'Zu viele Anfragen',
    text: 'Zu viele Anfragen in kurzer Zeit. Bitte warten Sie {{minutes}} Minuten und versuchen Sie es dann erneut.',
  },
  ...teamMessages.de,
  invitation: {
    title: 'Einladung annehmen',
    intro:
      'Sie wurden eingeladen, mit der E-Mail-Adresse {{email}} im Forderungsmanagement von {{company}} mitzuarbeiten. Legen Sie Ihr Passwort fest, um Ihr Konto anzulegen.',
    submit: 'Konto anlegen',
    invalidTitle: 'Einladung ungültig',
    invalid:
      'Diese Einladung ist abgelaufen, wurde zurückgezogen oder bereits angenommen. Bitten Sie die Person, die Sie eingeladen hat, um eine neue Einladung.',
    taken: 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Bitte melden Sie sich damit an.',
  },
  mail: {
    salutation: 'Sehr geehrte Damen und Herren,',
    closing: 'Mit freundlichen Grüßen',
    signature: 'Ihr Forderungsmanagement',
    resetSubject: 'Passwort zurücksetzen',
    resetBody: 'für Ihr Konto {{email}} ({{company}}) wurde ein neues Passwort angefordert. Über den folgenden Link legen Sie es fest:',
    resetExpiry: 'Der Link ist bis zum {{until}} Uhr gültig und kann nur einmal verwendet werden.',
    resetIgnore:
      'Falls Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren; Ihr Passwort bleibt dann unverändert.',
    inviteSubject: 'Einladung von {{company}}',
    inviteBody:
      '{{inviter}} lädt Sie ein, im Forderungsmanagement von {{company}} mitzuarbeiten. Über den folgenden Link legen Sie Ihr Passwort fest und erhalten Zugang:',
    inviteOperator: 'Der Betreiber',
    inviteExpiry: 'Die Einladung ist bis zum {{until}} Uhr gültig und kann nur einmal verwendet werden.',
    inviteIgnore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  },
};

const en: typeof de = {
  nav: 'Team',
  password: {
    label: 'New password',
    repeat: 'Repeat the new password',
    rules: 'At least 12 characters with upper-case and lower-case letters, a digit and a special character.',
    weak: 'The password does not meet the rules: at least 12 characters with upper-case and lower-case letters, a digit and a special character.',
    tooLong: 'The password may be at most 200 characters long.',
    mismatch: 'The two passwords do not match.',
  },
  email: {
    label: 'E-mail address',
    invalid: 'Please enter a valid e-mail address.',
  },
  reset: {
    forgot: 'Forgot your password?',
    title: 'Reset password',
    intro: "Enter your account's e-mail address. We will send you a link to set a new password.",
    submit: 'Send link',
    sentTitle: 'E-mail on its way',
    sent: 'If there is an account with this e-mail address, we have just sent a link to reset the password to it. The link is valid for one hour and can be used once.',
    formTitle: 'Set a new password',
    account: 'Account',
    save: 'Save password',
    invalidTitle: 'Link not valid',
    invalid: 'This link has expired or has been used already.',
    again: 'Request a new link',
    doneTitle: 'Password changed',
    done: 'Your password has been changed and you are signed in. All other sessions of your account have been ended.',
    toDashboard: 'Go to the overview',
    backToSignIn: 'Back to sign-in',
  },
  tooMany: {
    title: 'Too many requests',
    text: 'Too many requests in a short time. Please wait {{minutes}} minutes and try again.',
  },
  ...teamMessages.en,
  invitation: {
    title: 'Accept the invitation',
    intro:
      "You have been invited to work in {{company}}'s receivables management with the e-mail address {{email}}. Set your password to create your account.",
    submit: 'Create account',
    invalidTitle: 'Invitation not valid',
    invalid: 'This invitation has expired, been revoked or been accepted already. Please ask the person who invited you for a new one.',
    taken: 'There is an account with this e-mail address already. Please sign in with it.',
  },
  mail: {
    salutation: 'Hello,',
    closing: 'Kind regards',
    signature: 'Your receivables management',
    resetSubject: 'Reset your password',
    resetBody: 'a new password was requested for your account {{email}} ({{company}}). Set it with the following link:',
    resetExpiry: 'The link is valid until {{until}} and can be used once.',
    resetIgnore: 'If you did not ask for a new password, you can ignore this e-mail; your password then stays as it is.',
    inviteSubject: 'Invitation from {{company}}',
    inviteBody:
      "{{inviter}} invites you to work in {{company}}'s receivables management. Set your password and get access with the following link:",
    inviteOperator: 'The operator',
    inviteExpiry: 'The invitation is valid until {{until}} and can be used once.',
    inviteIgnore: 'If you did not expect this invitation, you can ignore this e-mail.',
  },
};

// The shape of catalogue.ts's AreaMessages, written out: importing it from there would be an import cycle.
export const accountMessages: { de: typeof de; en: typeof de } = { de, en };
