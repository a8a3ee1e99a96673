import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import {
  accountKeys,
  changePassword,
  forgotPassword,
  makeAdmin,
  removeAdmin,
  resendVerification,
  resetPassword,
  saveProfile,
  signOutEverywhere,
  signUp,
  verifyEmail,
} from './accounts-api.ts';

/** Make Admin: the users list refreshes to show the new badge. */
export function useMakeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeAdmin,
    onSuccess: () => refreshAfterWrite(queryClient, accountKeys.users),
  });
}

/** Remove Admin: the users list refreshes, and so does every cached admin check (one may be the removed user's). */
export function useRemoveAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAdmin,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.users }),
        queryClient.invalidateQueries({ queryKey: accountKeys.adminChecks }),
      ]),
  });
}

/** The server answers with the saved profile: it becomes the cached one, no second request. */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.profile, saved),
  });
}

/** Sign Up: nothing to refresh, the account exists only once the mailed link is opened. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}

/**
 * Opens the link of the verification mail. A sign-up's link answers a session: it is kept as a sign-in keeps it
 * (the visitor's cart and garage join the account, as at any sign-in). An older account's link only verifies it,
 * and a signed-in user's banner goes once the server knows.
 */
export function useVerifyEmail() {
  const { status, refreshUser, signIn } = useAuth();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (result) => {
      if (result.token && result.user) signIn(result.token, result.user);
      else if (status === 'signed-in') void refreshUser().catch(() => {});
    },
  });
}

/** 'Send the link again'. Already verified (409, say in another tab): the user is asked for again, so the banner goes. */
export function useResendVerification() {
  const { refreshUser } = useAuth();
  return useMutation({
    mutationFn: resendVerification,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void refreshUser().catch(() => {});
    },
  });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

/** Every other session ends on the server, the caller's own included: the answer's new token replaces it here. */
export function useChangePassword() {
  const { signIn } = useAuth();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (result) => signIn(result.token, result.user),
  });
}

/** Every session of the account ends on the server; this browser forgets its own and goes to /login. */
export function useSignOutEverywhere() {
  const { signOut } = useAuth();
  return useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => signOut('signed-out-everywhere', { alreadyRevoked: true }),
  });
}
