import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

interface ConfirmDialogProps {
  show: boolean;
  /** The question, e.g. the spec's 'Confirm Delete' or 'Are You Sure?'. */
  title: string;
  body?: string;
  confirmLabel?: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** A real, focus-trapping confirmation dialog (not window.confirm), keyboard friendly: Esc cancels. */
export function ConfirmDialog({
  show,
  title,
  body,
  confirmLabel = 'Delete',
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="confirm-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-dialog-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      {body ? <Modal.Body>{body}</Modal.Body> : null}
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {busy ? <Spinner animation="border" size="sm" role="status" aria-label="Working" className="me-2" /> : null}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
