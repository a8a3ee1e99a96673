import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type AdminCheck,
  type AuthResponse,
  adminCheckSchema,
  authResponseSchema,
  type LoginBody,
  type MakeAdminResponse,
  type Me,
  makeAdminResponseSchema,
  meSchema,
  type Profile,
  type ProfileBody,
  profileSchema,
  providersSchema,
  type SignupBody,
  userListItemSchema,
} from '../../../shared/schemas/accounts.ts';
import { api } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

export const accountKeys = {
  providers: [...queryRoots.auth, 'providers'] as const,
  admin: (email: string) => [...queryRoots.auth, 'admin', email.toLowerCase()] as const,
  users: queryRoots.users,
  profile: queryRoots.profile,
};

export function logIn(body: LoginBody): Promise<AuthResponse> {
  return api('/login', { method: 'POST', body, schema: authResponseSchema });
}

export function signUp(body: SignupBody): Promise<AuthResponse> {
  return api('/signup', { method: 'POST', body, schema: authResponseSchema });
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

export const usersQuery = queryOptions({
  queryKey: accountKeys.users,
  queryFn: ({ signal }) => api('/user', { schema: z.array(userListItemSchema), signal }),
});

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
