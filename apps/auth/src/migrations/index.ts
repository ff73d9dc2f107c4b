import { CreateAuthSchema1795300000000 } from './1795300000000-create-auth-schema';
import { TwoFactor1795400000000 } from './1795400000000-two-factor';

/** Every migration of the auth schema, oldest first (classes, so ts-jest and dist both work). */
export const AUTH_MIGRATIONS = [CreateAuthSchema1795300000000, TwoFactor1795400000000];
