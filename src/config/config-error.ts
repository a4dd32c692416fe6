/** A setting that is missing or wrong: the service refuses to start and says which and why. */
export class ConfigError extends Error {}
