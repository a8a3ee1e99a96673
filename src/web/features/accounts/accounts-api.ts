import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type AdminCheck,
  type AuthResponse,
  adminCheckSchema,
  authResponseSchema,
  type ChangePasswordBody,
  type ForgotPasswordBody,
  type LoginBody,
  type MakeAdminResponse,
  type Me,
  type MessageResponse,
  makeAdminResponseSchema,
  meSchema,
  messageResponseSchema,
  type Profile,
  type ProfileBody,
  profileSchema,
  providersSchema,
  type ResetPasswordBody,
  type SignupBody,
  userListItemSchema,
  type VerifyEmailResponse,
  verifyEmailResponseSchema,
} from '../../../shared/schemas/accounts.ts';
import { api, apiPage } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

export const accountKeys = {
  providers: [...queryRoots.auth, 'providers'] as const,
  adminChecks: [...queryRoots.auth, 'admin'] as const,
  admin: (email: string) => [...queryRoots.auth, 'admin', email.toLowerCase()] as const,
  users: queryRoots.users,
  profile: queryRoots.profile,
};

export function logIn(body: LoginBody): Promise<AuthResponse> {
  return api('/login', { method: 'POST', body, schema: authResponseSchema });
}

/** The same answer whether or not the email has an account: the mail says which (the account waits for its link). */
export function signUp(body: SignupBody): Promise<MessageResponse> {
  return api('/signup', { method: 'POST', body, schema: messageResponseSchema, token: null });
}

export function fetchMe(): Promise<Me> {
  return api('/me', { schema: meSchema });
}

export const providersQuery = queryOptions({
  queryKey: accountKeys.providers,
  queryFn: ({ signal }) => api('/auth/providers', { schema: providersSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Spec §4 admin check: the server is asked about the signed-in email on every visit of an admin page. */
export const adminCheckQuery = (email: string) =>
  queryOptions<AdminCheck>({
    queryKey: accountKeys.admin(email),
    queryFn: ({ signal }) => api(`/admin/${encodeURIComponent(email)}`, { schema: adminCheckSchema, signal }),
    staleTime: 0,
  });

/** One page of the Users page: a search over email and name, and the page by offset (page 1, a URL) or cursor. */
export interface UsersFilter {
  limit: number;
  q?: string | undefined;
  offset?: number | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

export function usersQuery(filter: UsersFilter) {
  const query = {
    limit: filter.limit,
    ...(filter.after ? { after: filter.after } : filter.before ? { before: filter.before } : {}),
    ...(!filter.after && !filter.before && filter.offset ? { offset: filter.offset } : {}),
    ...(filter.q?.trim() ? { q: filter.q.trim() } : {}),
  };
  return queryOptions({
    // Under `accountKeys.users`: a role change refreshes every page of the list.
    queryKey: [...accountKeys.users, query] as const,
    queryFn: ({ signal }) => apiPage('/user', { query, schema: z.array(userListItemSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

export function makeAdmin(email: string): Promise<MakeAdminResponse> {
  return api(`/user/admin/${encodeURIComponent(email)}`, { method: 'PUT', schema: makeAdminResponseSchema });
}

export const profileQuery = queryOptions({
  queryKey: accountKeys.profile,
  queryFn: ({ signal }) => api('/profile', { schema: profileSchema, signal }),
});

export function saveProfile(body: ProfileBody): Promise<Profile> {
  return api('/profile', { method: 'POST', body, schema: profileSchema });
}

/** Where the Google button sends the browser: a full navigation, the server answers with a redirect. */
export function googleSignInUrl(returnTo: string): string {
  return `/api/auth/google?${new URLSearchParams({ returnTo }).toString()}`;
}

/* Proof of email, a way back in, and sessions the owner controls (docs/api.md). */

export function verifyEmail(token: string): Promise<VerifyEmailResponse> {
  // The link may be opened in another browser, or by someone else signed in here: the token alone proves it.
  return api('/email/verify', { method: 'POST', body: { token }, schema: verifyEmailResponseSchema, token: null });
}

export function resendVerification(): Promise<MessageResponse> {
  return api('/email/verify/resend', { method: 'POST', schema: messageResponseSchema });
}

export function forgotPassword(body: ForgotPasswordBody): Promise<MessageResponse> {
  return api('/password/forgot', { method: 'POST', body, schema: messageResponseSchema, token: null });
}

export function resetPassword(body: ResetPasswordBody): Promise<MessageResponse> {
  return api('/password/reset', { method: 'POST', body, schema: messageResponseSchema, token: null });
}

export function changePassword(body: ChangePasswordBody): Promise<AuthResponse> {
  return api('/password/change', { method: 'POST', body, schema: authResponseSchema });
}

export function signOutEverywhere(): Promise<void> {
  return api('/logout/everywhere', { method: 'POST' });
}

/** Signs out one session by its token: the one a person chose not to continue with. */
export function revokeToken(token: string): Promise<void> {
  return api('/logout', { method: 'POST', token });
}

/**
 * Trades the one-time code of a Google sign-in for a session. Only the browser that started the sign-in can: the
 * server checks the HttpOnly cookie it set then (same origin, so fetch sends it).
 */
export function redeemGoogleCode(code: string): Promise<AuthResponse> {
  return api('/auth/google/redeem', { method: 'POST', body: { code }, schema: authResponseSchema, token: null });
}

export function removeAdmin(email: string): Promise<MakeAdminResponse> {
  return api(`/user/admin/${encodeURIComponent(email)}`, { method: 'DELETE', schema: makeAdminResponseSchema });
}
