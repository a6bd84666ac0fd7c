// A configuration the service cannot start with; its own module so providers can raise it without importing the
// configuration they are built from.
export class ConfigError extends Error {}
