/** Injection token of the database URL the application runs on (embedded or DATABASE_URL). */
export const DATABASE_URL = Symbol('DATABASE_URL');
