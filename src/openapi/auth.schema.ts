// Response schema of the authentication check (GET /, src/auth/root.controller.ts); the company is
// the same object in the self-registration's answer (src/companies/registration.serializer.ts).
import { idProperty, textProperty } from './properties.js';
import { component } from './schema.js';

export const CompanySchema = component('Company', {
  id: idProperty('cmp', 'Service id of the company'),
  name: textProperty({ example: 'Muster GmbH' }),
});

export const AuthenticationCheckSchema = component('AuthenticationCheck', { company: CompanySchema }, { description: 'The company the credential belongs to' });
