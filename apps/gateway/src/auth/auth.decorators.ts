import { SetMetadata } from '@nestjs/common';

/**
 * Routes are protected by default: the global JWT guard requires a valid bearer token and
 * a live session unless a route says otherwise. New routes are therefore safe by default.
 */
export const AUTH_MODE = 'vault:auth-mode';
export type AuthMode = 'required' | 'optional' | 'public' | 'admin';

/** No token needed (sign-in, sign-up, health...). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_MODE, 'public');

/** A valid token is used when one comes; a missing or bad one is ignored (logout). */
export const OptionalAuth = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_MODE, 'optional');
