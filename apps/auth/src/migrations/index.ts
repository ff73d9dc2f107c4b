import { CreateAuthSchema1795300000000 } from './1795300000000-create-auth-schema';
import { TwoFactor1795400000000 } from './1795400000000-two-factor';
import { Recovery1795410000000 } from './1795410000000-recovery';
import { AccountSettings1795420000000 } from './1795420000000-account-settings';
import { PhoneSignIn1795430000000 } from './1795430000000-phone-sign-in';
import { AdminIndexes1795450000000 } from './1795450000000-admin-indexes';

/** Every migration of the auth schema, oldest first (classes, so ts-jest and dist both work). */
export const AUTH_MIGRATIONS = [
  CreateAuthSchema1795300000000,
  TwoFactor1795400000000,
  Recovery1795410000000,
  AccountSettings1795420000000,
  PhoneSignIn1795430000000,
  AdminIndexes1795450000000,
];
