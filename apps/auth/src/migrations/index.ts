import { CreateAuthSchema1795300000000 } from './1795300000000-create-auth-schema';

/** Every migration of the auth schema, oldest first (classes, so ts-jest and dist both work). */
export const AUTH_MIGRATIONS = [CreateAuthSchema1795300000000];
