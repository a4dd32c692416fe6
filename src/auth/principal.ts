// Who is calling: the authenticated company (with the settings every response needs) and the credential.
export type AuthScheme = 'token' | 'apikey' | 'bearer';

export interface CompanyContext {
  id: string;
  name: string;
  timeZone: string;
}

export interface Principal {
  company: CompanyContext;
  credentialId: string;
  scheme: AuthScheme;
}
