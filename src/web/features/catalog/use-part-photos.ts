import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { makeMainPartPhoto, removePartPhoto, reorderPartPhotos, uploadPartPhoto } from './part-photos-api.ts';
import { partKeys } from './parts-api.ts';

export type PhotoChange =
  | { kind: 'upload'; file: Blob }
  | { kind: 'reorder'; order: string[] }
  | { kind: 'main'; photoId: string }
  | { kind: 'remove'; photoId: string };

/**
 * Every change to a part's photos, answered with its photos as they now are. Each refreshes every parts
 * list and detail: the main photo is the part's image everywhere.
 */
export function usePartPhotoChange(partId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PhotoChange) => {
      switch (change.kind) {
        case 'upload':
          return uploadPartPhoto(partId, change.file);
        case 'reorder':
          return reorderPartPhotos(partId, change.order);
        case 'main':
          return makeMainPartPhoto(partId, change.photoId);
        case 'remove':
          return removePartPhoto(partId, change.photoId);
      }
    },
    onSettled: () => refreshAfterWrite(queryClient, partKeys.all),
  });
}

/**
 * Add A Product: the photos chosen before the part existed, uploaded one by one in their order once it is saved.
 * Answers the files that were refused, each with the server's reason.
 */
export function useUploadPendingPhotos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ partId, files }: { partId: string; files: File[] }) => {
      const refused: { file: File; error: unknown }[] = [];
      for (const file of files) {
        try {
          await uploadPartPhoto(partId, file);
        } catch (error) {
          refused.push({ file, error });
        }
      }
      return refused;
    },
    onSettled: () => refreshAfterWrite(queryClient, partKeys.all),
  });
}
