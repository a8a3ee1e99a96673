import { type DragEvent, type ReactNode, useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify/unstyled';
import { NO_PHOTO_IMAGE, type PartPhoto, PHOTO_ACCEPT } from '../../../shared/schemas/media.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { usePartPhotoChange } from './use-part-photos.ts';
import './part-photos-field.css';

/** The server's limit, checked here first so a huge file is not sent only to be refused. */
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** The drag type of a thumbnail being moved (as opposed to files dropped from the computer). */
const PHOTO_DRAG = 'application/x-redline-photo';

/** One thumbnail as the list shows it: a stored photo, or a chosen file not uploaded yet (Add A Product). */
interface PhotoItem {
  key: string;
  src: string;
  srcSet?: string | undefined;
}

/** Moves the item at `from` to `to`, the others keeping their order. */
function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** Files that are too big are said at once, by name; the rest go on. */
function withinLimit(files: File[]): File[] {
  return files.filter((file) => {
    if (file.size <= MAX_PHOTO_BYTES) return true;
    toast.error(`${file.name}: a photo may be at most 10 MB.`);
    return false;
  });
}

/**
 * The photo list and the drop zone, for stored and chosen photos alike. Every action is a button (keyboard and
 * screen reader); dragging a thumbnail onto another also moves it, and files dropped anywhere on the zone are added.
 */
function PhotoList({
  idPrefix,
  name,
  items,
  busy,
  status,
  onAdd,
  onMove,
  onMain,
  onRemove,
  note,
}: {
  idPrefix: string;
  /** The part's name, for the thumbnails' text alternative. */
  name: string;
  items: PhotoItem[];
  busy: boolean;
  status: string;
  onAdd(files: File[]): void;
  onMove(from: number, to: number): void;
  onMain(index: number): void;
  onRemove(index: number): void;
  note?: ReactNode;
}) {
  const [dragOver, setDragOver] = useState(false);
  const inputId = `${idPrefix}-photos`;
  const hintId = useId();
  const drop = (event: DragEvent<HTMLElement>, index?: number) => {
    event.preventDefault();
    setDragOver(false);
    const from = event.dataTransfer.getData(PHOTO_DRAG);
    if (from !== '' && index !== undefined) {
      event.stopPropagation();
      onMove(Number(from), index);
      return;
    }
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onAdd(files);
  };
  return (
    <fieldset
      className="mb-3"
      onDragOver={(event) => {
        event.preventDefault();
        setDragOver(true);
      }}
      onDragLeave={() => setDragOver(false)}
      onDrop={(event) => drop(event)}
    >
      <legend className="form-label fs-6 mb-1">Photos</legend>
      <div className={`part-photos-zone rounded p-3 ${dragOver ? 'part-photos-zone-over' : ''}`}>
        <Form.Label htmlFor={inputId} className="mb-1">
          Add photos
        </Form.Label>
        <Form.Control
          id={inputId}
          type="file"
          multiple
          accept={PHOTO_ACCEPT}
          disabled={busy}
          aria-describedby={hintId}
          onChange={(event) => {
            const input = event.target as HTMLInputElement;
            const files = [...(input.files ?? [])];
            input.value = '';
            if (files.length > 0) onAdd(files);
          }}
        />
        <p id={hintId} className="form-text mb-0">
          Or drag photos here. JPEG, PNG, WebP or AVIF, up to 10 MB each. The first photo is the main one: it is the
          product's picture everywhere.
        </p>
        {note}
        <p className="small mb-0 mt-2" role="status" aria-live="polite">
          {status}
        </p>
        {items.length > 0 ? (
          <ol className="part-photos-list list-unstyled d-flex flex-wrap gap-3 mt-3 mb-0" aria-label="Photos, in order">
            {items.map((item, index) => {
              const label = `photo ${index + 1}`;
              return (
                <li
                  key={item.key}
                  className="part-photos-item border rounded p-2 bg-white"
                  draggable={!busy}
                  onDragStart={(event) => event.dataTransfer.setData(PHOTO_DRAG, String(index))}
                  onDragOver={(event) => event.preventDefault()}
                  onDrop={(event) => drop(event, index)}
                >
                  <img
                    src={item.src}
                    srcSet={item.srcSet}
                    sizes="128px"
                    alt={`${name}, ${index + 1} of ${items.length}${index === 0 ? ' (main)' : ''}`}
                    width={128}
                    height={96}
                    className="part-photos-thumb rounded"
                  />
                  <div className="d-flex align-items-center gap-1 mt-1 flex-wrap">
                    {index === 0 ? (
                      <Badge bg="dark">Main photo</Badge>
                    ) : (
                      <Button
                        size="sm"
                        variant="outline-dark"
                        disabled={busy}
                        onClick={() => onMain(index)}
                        aria-label={`Make main ${label}`}
                      >
                        Make Main
                      </Button>
                    )}
                  </div>
                  <div className="d-flex gap-1 mt-1">
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      disabled={busy || index === 0}
                      onClick={() => onMove(index, index - 1)}
                      aria-label={`Move ${label} earlier`}
                    >
                      <span aria-hidden="true">←</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      disabled={busy || index === items.length - 1}
                      onClick={() => onMove(index, index + 1)}
                      aria-label={`Move ${label} later`}
                    >
                      <span aria-hidden="true">→</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={busy}
                      onClick={() => onRemove(index)}
                      aria-label={`Remove ${label}`}
                    >
                      Remove
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Edit: a saved part's photos, each change sent at once. */
export function PartPhotosField({
  partId,
  name,
  initial,
  idPrefix,
  onImageChange,
}: {
  partId: string;
  name: string;
  /**
   * The part's `img` as the server set it after a change (the main photo's URL, or the no-photo picture after the
   * last is removed), so the form's link field, sent again by Save Changes, does not put back the old one.
   */
  onImageChange?(img: string): void;
  initial: PartPhoto[];
  idPrefix: string;
}) {
  const [photos, setShownPhotos] = useState(initial);
  const setPhotos = (next: PartPhoto[]) => {
    setShownPhotos(next);
    onImageChange?.(next[0]?.url ?? NO_PHOTO_IMAGE);
  };
  const [status, setStatus] = useState('');
  const change = usePartPhotoChange(partId);
  const [uploading, setUploading] = useState(false);
  const busy = uploading || change.isPending;

  const run = async (work: Parameters<typeof change.mutateAsync>[0], done: string) => {
    try {
      setPhotos(await change.mutateAsync(work));
      setStatus(done);
    } catch (error) {
      toast.error(errorMessage(error));
      setStatus('');
    }
  };

  const add = async (files: File[]) => {
    const accepted = withinLimit(files);
    setUploading(true);
    let added = 0;
    for (const [index, file] of accepted.entries()) {
      setStatus(`Uploading ${index + 1} of ${accepted.length}…`);
      try {
        setPhotos(await change.mutateAsync({ kind: 'upload', file }));
        added += 1;
      } catch (error) {
        toast.error(`${file.name}: ${errorMessage(error)}`);
      }
    }
    setUploading(false);
    setStatus(added === 0 ? 'No photo was added.' : `${added} ${added === 1 ? 'photo' : 'photos'} added.`);
  };

  return (
    <PhotoList
      idPrefix={idPrefix}
      name={name}
      items={photos.map((photo) => ({ key: photo.id, src: photo.url, srcSet: photo.srcset }))}
      busy={busy}
      status={status}
      onAdd={(files) => void add(files)}
      onMove={(from, to) =>
        void run(
          { kind: 'reorder', order: moved(photos, from, to).map((photo) => photo.id) },
          `Photo ${from + 1} moved to place ${to + 1}.`,
        )
      }
      onMain={(index) => {
        const photo = photos[index];
        if (photo) void run({ kind: 'main', photoId: photo.id }, `Photo ${index + 1} is now the main photo.`);
      }}
      onRemove={(index) => {
        const photo = photos[index];
        if (photo) void run({ kind: 'remove', photoId: photo.id }, `Photo ${index + 1} removed.`);
      }}
    />
  );
}

/** A preview of a chosen file, as a data: URL (the Content-Security-Policy allows data: images, not blob: ones). */
function previewOf(file: File): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => resolve('');
    reader.readAsDataURL(file);
  });
}

/** Add A Product: photos chosen before the part exists, uploaded in this order once it is saved. */
export function usePendingPhotos() {
  const [files, setFiles] = useState<{ key: string; file: File; src: string }[]>([]);
  return {
    files,
    add: async (chosen: File[]) => {
      const items = await Promise.all(
        withinLimit(chosen).map(async (file) => ({ key: crypto.randomUUID(), file, src: await previewOf(file) })),
      );
      setFiles((list) => [...list, ...items]);
    },
    move: (from: number, to: number) => setFiles((list) => moved(list, from, to)),
    main: (index: number) => setFiles((list) => moved(list, index, 0)),
    remove: (index: number) => setFiles((list) => list.filter((_, i) => i !== index)),
    clear: () => setFiles([]),
  };
}
export type PendingPhotos = ReturnType<typeof usePendingPhotos>;

export function PendingPhotosField({ pending, idPrefix }: { pending: PendingPhotos; idPrefix: string }) {
  const count = pending.files.length;
  return (
    <PhotoList
      idPrefix={idPrefix}
      name="New product"
      items={pending.files.map((item) => ({ key: item.key, src: item.src }))}
      busy={false}
      status={
        count === 0 ? '' : `${count} ${count === 1 ? 'photo' : 'photos'} chosen: uploaded when the product is added.`
      }
      onAdd={(files) => void pending.add(files)}
      onMove={pending.move}
      onMain={pending.main}
      onRemove={pending.remove}
    />
  );
}
