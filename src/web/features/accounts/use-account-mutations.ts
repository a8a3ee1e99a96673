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

/** Opens the link of the verification mail; a signed-in user's banner goes once the server knows. */
export function useVerifyEmail() {
  const { status, refreshUser } = useAuth();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => (status === 'signed-in' ? refreshUser().catch(() => {}) : undefined),
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
