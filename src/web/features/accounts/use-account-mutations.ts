import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys, makeAdmin, saveProfile } from './accounts-api.ts';

/** Make Admin: the users list refreshes to show the new badge. */
export function useMakeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.users }),
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
