import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { shopInfo } from '../../features/content/shop-info.ts';

/** The home page's "Contact Us" dialog: how to reach the shop. */
export function ContactDialog({ show, onHide }: { show: boolean; onHide(): void }) {
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="contact-title">
      <Modal.Header closeButton>
        <Modal.Title id="contact-title" as="h2" className="h5">
          Contact Us
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>We are happy to help with orders, quotes and fitting questions.</p>
        <dl className="mb-0">
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${shopInfo.contactEmail}`}>{shopInfo.contactEmail}</a>
          </dd>
          <dt>Phone</dt>
          <dd className="mb-0">
            <a href={`tel:${shopInfo.contactPhone.replaceAll(' ', '')}`}>{shopInfo.contactPhone}</a>
          </dd>
        </dl>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
