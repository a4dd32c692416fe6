// The web app's error pages beyond "not found", in German and English (area `errorPage` of the catalogue).
// English has exactly the German keys (`satisfies`); no import of catalogue.ts's AreaMessages, which would be a cycle.

const de = {
  internal: {
    title: 'Ein Fehler ist aufgetreten',
    text: 'Bei dieser Anfrage ist ein unerwarteter Fehler aufgetreten. Er wurde protokolliert; bitte versuchen Sie es später erneut.',
  },
  unavailable: {
    title: 'Vorübergehend nicht erreichbar',
    text: 'Der Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es in einigen Sekunden erneut.',
  },
  tooMany: {
    title: 'Zu viele Anfragen',
    text: 'Bitte warten Sie einen Moment und versuchen Sie es dann erneut.',
  },
  refused: {
    title: 'Anfrage nicht möglich',
    text: 'Diese Anfrage konnte nicht verarbeitet werden. Bitte prüfen Sie die Adresse und Ihre Eingaben.',
  },
  requestId: 'Vorgangsnummer für Rückfragen: {{id}}',
  back: 'Zur Übersicht',
};

export const errorPageMessages = {
  de,
  en: {
    internal: {
      title: 'Something went wrong',
      text: 'An unexpected error occurred with this request. It has been logged; please try again later.',
    },
    unavailable: {
      title: 'Temporarily unavailable',
      text: 'The service cannot be reached right now. Please try again in a few seconds.',
    },
    tooMany: {
      title: 'Too many requests',
      text: 'Please wait a moment and then try again.',
    },
    refused: {
      title: 'Request not possible',
      text: 'This request could not be processed. Please check the address and what you entered.',
    },
    requestId: 'Reference for enquiries: {{id}}',
    back: 'Back to the dashboard',
  } satisfies typeof de,
};
