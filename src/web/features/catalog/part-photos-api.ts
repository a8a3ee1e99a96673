import { type PartPhoto, partPhotosSchema } from '../../../shared/schemas/media.ts';
import { api } from '../../lib/api-client.ts';

const photosPath = (partId: string) => `/part/${encodeURIComponent(partId)}/photos`;

/**
 * One photo, sent as its bytes. Declared as plain bytes whatever the file says it is: the server decides
 * by the content alone, so its answer is the same for a renamed file as for any other.
 */
export function uploadPartPhoto(partId: string, file: Blob): Promise<PartPhoto[]> {
  const bytes = new Blob([file], { type: 'application/octet-stream' });
  return api(photosPath(partId), { method: 'POST', body: bytes, schema: partPhotosSchema });
}

export function reorderPartPhotos(partId: string, order: string[]): Promise<PartPhoto[]> {
  return api(photosPath(partId), { method: 'PUT', body: { order }, schema: partPhotosSchema });
}

export function makeMainPartPhoto(partId: string, photoId: string): Promise<PartPhoto[]> {
  return api(`${photosPath(partId)}/${encodeURIComponent(photoId)}/main`, { method: 'PUT', schema: partPhotosSchema });
}

export function removePartPhoto(partId: string, photoId: string): Promise<PartPhoto[]> {
  return api(`${photosPath(partId)}/${encodeURIComponent(photoId)}`, { method: 'DELETE', schema: partPhotosSchema });
}
