// The postal providers by name (POSTAL_PROVIDER). Adding one — an HTTP print-and-mail service, say — is
// one class extending PostalProvider and its line here; its settings come from the POSTAL_PROVIDER_*
// variables (config.postalProviderOptions: `url`, `api_key`, …).
import { ConfigError } from '../../config/config-error.js';
import type { ShippingConfig } from '../../config/shipping.config.js';
import { PostalProvider } from './postal-provider.js';
import { PrintBatchProvider } from './print-batch.provider.js';

export type PostalProviderFactory = (config: ShippingConfig) => PostalProvider;

export const POSTAL_PROVIDERS: Readonly<Record<string, PostalProviderFactory>> = {
  print_batch: (config) => new PrintBatchProvider(config.printBatchDir, config.printBatchRefreshSeconds * 1000),
};

/** The provider POSTAL_PROVIDER names; an unknown name stops the start with the names there are. */
export function createPostalProvider(config: ShippingConfig, providers: Readonly<Record<string, PostalProviderFactory>> = POSTAL_PROVIDERS): PostalProvider {
  const factory = Object.hasOwn(providers, config.postalProvider) ? providers[config.postalProvider] : undefined;
  if (!factory) throw new ConfigError(`POSTAL_PROVIDER must be one of ${Object.keys(providers).join(', ')}, got "${config.postalProvider}"`);
  const provider = factory(config);
  if (!(provider instanceof PostalProvider)) throw new ConfigError(`the postal provider ${config.postalProvider} does not extend PostalProvider`);
  return provider;
}
