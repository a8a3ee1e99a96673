import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { toast } from 'react-toastify/unstyled';
import { confirmMessages } from '../../../shared/messages.ts';
import type { Part } from '../../../shared/schemas/parts.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PartCard, PartCardSkeleton } from '../../components/part-card.tsx';
import { EmptyState, LoadError, SkeletonGrid } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { SearchBar, useCatalogSearch } from './catalog-search.tsx';
import { catalogPageQueryOptions, pageCountOf } from './catalog-search-params.ts';
import { PartsPagination } from './parts-pagination.tsx';
import { ProductForm } from './product-form.tsx';
import { useDeletePart, useUpdatePart } from './use-part-mutations.ts';

const productMessages = {
  updated: 'Product Updated Successfully',
  deleted: 'Product Deleted Successfully',
} as const;

export function Component() {
  usePageTitle('Manage Products');
  const { user } = useAuth();
  const { q, sort, page, update } = useCatalogSearch();
  const parts = useQuery(catalogPageQueryOptions({ q, sort, page }));
  const [toDelete, setToDelete] = useState<Part | null>(null);
  const [toEdit, setToEdit] = useState<Part | null>(null);
  const total = parts.data?.total ?? 0;
  const pageCount = pageCountOf(total);

  const remove = useDeletePart();
  const save = useUpdatePart();
  const confirmDelete = (part: Part) =>
    remove.mutate(part._id, {
      onSuccess: () => {
        toast.success(productMessages.deleted);
        setToDelete(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setToDelete(null);
      },
    });

  return (
    <section aria-labelledby="manage-products-title">
      <h1 id="manage-products-title" className="h3 mb-3">
        Manage Products
      </h1>
      <SearchBar q={q} sort={sort} onSearch={(text) => update({ q: text })} onSort={(next) => update({ sort: next })} />
      <p className="text-body-secondary small" aria-live="polite">
        {parts.isSuccess ? `${total} ${total === 1 ? 'product' : 'products'}${q ? ` matching “${q}”` : ''}` : '\u00a0'}
      </p>
      {parts.isError ? (
        <LoadError error={parts.error} onRetry={() => void parts.refetch()} what="the products" />
      ) : parts.isPending ? (
        <SkeletonGrid xs={1} md={2} xl={3} count={3} label="Loading products" skeleton={<PartCardSkeleton />} />
      ) : parts.data.items.length === 0 ? (
        <EmptyState>{q ? `No products match “${q}”.` : 'No products yet. Add one from Add A Product.'}</EmptyState>
      ) : (
        <>
          <Row xs={1} md={2} xl={3} className={`g-4 ${parts.isPlaceholderData ? 'opacity-50' : ''}`}>
            {parts.data.items.map((part) => (
              <Col key={part._id}>
                <PartCard part={part}>
                  <Button variant="outline-dark" onClick={() => setToEdit(part)} aria-label={`Edit ${part.name}`}>
                    Edit
                  </Button>
                  <Button variant="danger" onClick={() => setToDelete(part)} aria-label={`Delete ${part.name}`}>
                    Delete
                  </Button>
                </PartCard>
              </Col>
            ))}
          </Row>
          <PartsPagination
            page={page}
            pageCount={pageCount}
            onPage={(next) => update({ page: next })}
            label="Product pages"
          />
        </>
      )}

      <ConfirmDialog
        show={toDelete !== null}
        title={confirmMessages.deleteProduct}
        body={
          toDelete
            ? `“${toDelete.name}” will be removed from the catalogue. Orders already placed keep their copy.`
            : undefined
        }
        busy={remove.isPending}
        onConfirm={() => toDelete && confirmDelete(toDelete)}
        onCancel={() => setToDelete(null)}
      />

      <Modal show={toEdit !== null} onHide={() => setToEdit(null)} size="lg" aria-labelledby="edit-product-title">
        <Modal.Header closeButton>
          <Modal.Title id="edit-product-title" as="h2" className="h5">
            Edit Product
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {toEdit ? (
            <ProductForm
              key={toEdit._id}
              adminEmail={toEdit.email ?? user?.email ?? ''}
              part={toEdit}
              submitLabel="Save Changes"
              onCancel={() => setToEdit(null)}
              onSubmit={async (values) => {
                const { email: _ignored, ...patch } = values;
                await save.mutateAsync({ id: toEdit._id, patch });
                toast.success(productMessages.updated);
                setToEdit(null);
                return 'keep';
              }}
            />
          ) : null}
        </Modal.Body>
      </Modal>
    </section>
  );
}
