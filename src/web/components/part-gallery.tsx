import { type KeyboardEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { PartPhoto } from '../../shared/schemas/media.ts';
import { mainPicture } from '../lib/main-picture.ts';
import './part-gallery.css';

/** The smallest stored width (the first of the srcset), for thumbnails. */
const smallest = (photo: PartPhoto) => photo.srcset.split(', ')[0]?.split(' ')[0] ?? photo.url;

/**
 * A part's uploaded photos on the purchase screen. The main photo first; thumbnails, Previous and Next
 * buttons, and the arrow keys move between them; a click (or Enter) on the photo opens it large in a dialog that
 * Escape closes. `srcset`/`sizes` let a phone download the 320 or 640 px file, never the 1280 one.
 */
export function PartGallery({ name, photos }: { name: string; photos: PartPhoto[] }) {
  const [index, setIndex] = useState(0);
  const [zoomed, setZoomed] = useState(false);
  const count = photos.length;
  const current = photos[Math.min(index, count - 1)];
  if (!current) return null;
  const position = `${index + 1} of ${count}`;
  const go = (step: number) => setIndex((i) => (i + step + count) % count);
  const onArrows = (event: KeyboardEvent) => {
    if (count < 2) return;
    if (event.key === 'ArrowRight') go(1);
    else if (event.key === 'ArrowLeft') go(-1);
    else return;
    event.preventDefault();
  };

  return (
    // The arrow keys are a shortcut; every move is also a button.
    <section className="part-gallery" aria-label={`Photos of ${name}`} onKeyDown={onArrows}>
      <button
        type="button"
        className="part-gallery-main"
        onClick={() => setZoomed(true)}
        aria-label={`Zoom in: ${name}, ${position}`}
      >
        <img
          src={current.url}
          srcSet={current.srcset}
          sizes="(min-width: 992px) 33vw, (min-width: 768px) 42vw, 100vw"
          alt=""
          width={current.width}
          height={current.height}
          {...mainPicture}
          decoding="async"
        />
      </button>
      {count > 1 ? (
        <div className="d-flex align-items-center gap-2 mt-2">
          <Button variant="outline-dark" size="sm" onClick={() => go(-1)} aria-label="Previous photo">
            <span aria-hidden="true">‹</span>
          </Button>
          <ul className="part-gallery-thumbs list-unstyled d-flex gap-2 mb-0 flex-grow-1">
            {photos.map((photo, i) => (
              <li key={photo.id}>
                <button
                  type="button"
                  className={`part-gallery-thumb ${i === index ? 'active' : ''}`}
                  onClick={() => setIndex(i)}
                  aria-label={`Show ${i + 1} of ${count}`}
                  aria-current={i === index ? 'true' : undefined}
                >
                  <img src={smallest(photo)} alt="" width={64} height={48} loading="lazy" decoding="async" />
                </button>
              </li>
            ))}
          </ul>
          <Button variant="outline-dark" size="sm" onClick={() => go(1)} aria-label="Next photo">
            <span aria-hidden="true">›</span>
          </Button>
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {count > 1 ? `Showing ${position}` : ''}
      </p>
      <Modal
        show={zoomed}
        onHide={() => setZoomed(false)}
        size="xl"
        centered
        fullscreen="md-down"
        aria-labelledby="part-gallery-zoom-title"
      >
        <Modal.Header closeButton>
          <Modal.Title id="part-gallery-zoom-title" as="h2" className="h5">
            {name}, {position}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="text-center" onKeyDown={onArrows}>
          <img
            src={current.largeUrl}
            alt={`${name}, ${position}`}
            width={current.width}
            height={current.height}
            className="part-gallery-large"
          />
          {count > 1 ? (
            <div className="d-flex justify-content-center gap-2 mt-3">
              <Button variant="outline-dark" onClick={() => go(-1)}>
                Previous
              </Button>
              <Button variant="outline-dark" onClick={() => go(1)}>
                Next
              </Button>
            </div>
          ) : null}
        </Modal.Body>
      </Modal>
    </section>
  );
}
