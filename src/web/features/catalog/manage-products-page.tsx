import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { toast } from 'react-toastify/unstyled';
import { confirmMessages } from '../../../shared/messages.ts';
import type { Part, PartPatch } from '../../../shared/schemas/parts.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PartCard, PartCardSkeleton } from '../../components/part-card.tsx';
import { EmptyState, LoadError, LoadingSpinner, SkeletonGrid } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { SearchBar, useCatalogSearch } from './catalog-search.tsx';
import { catalogListQueryOptions, pageChange, pageCountOf } from './catalog-search-params.ts';
import { categoryOptions } from './category-options.ts';
import { categoriesQueryOptions, partQueryOptions } from './parts-api.ts';
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
  const { search, q, sort, page, update } = useCatalogSearch();
  const parts = useQuery(catalogListQueryOptions(search));
  const filtered = Boolean(q || search.category || search.noFitment);
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
      <ProductFilters
        category={search.category}
        noFitment={search.noFitment}
        onCategory={(category) => update({ category })}
        onNoFitment={(noFitment) => update({ noFitment })}
      />
      <p className="text-body-secondary small" aria-live="polite">
        {parts.isSuccess
          ? `${total} ${total === 1 ? 'product' : 'products'}${q ? ` matching “${q}”` : ''}${
              search.noFitment ? ' without fitment yet' : ''
            }`
          : '\u00a0'}
      </p>
      {parts.isError ? (
        <LoadError error={parts.error} onRetry={() => void parts.refetch()} what="the products" />
      ) : parts.isPending ? (
        <SkeletonGrid xs={1} md={2} xl={3} count={3} label="Loading products" skeleton={<PartCardSkeleton />} />
      ) : parts.data.items.length === 0 ? (
        <EmptyState>
          {q
            ? `No products match “${q}”.`
            : filtered
              ? 'No products match these filters.'
              : 'No products yet. Add one from Add A Product.'}
        </EmptyState>
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
            onPage={(next) => update(pageChange(page, next, parts.isPlaceholderData ? undefined : parts.data))}
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
            <EditProduct
              key={toEdit._id}
              part={toEdit}
              adminEmail={toEdit.email ?? user?.email ?? ''}
              onCancel={() => setToEdit(null)}
              onSave={async (patch) => {
                await save.mutateAsync({ id: toEdit._id, patch });
                toast.success(productMessages.updated);
                setToEdit(null);
              }}
            />
          ) : null}
        </Modal.Body>
      </Modal>
    </section>
  );
}

/**
 * The editor waits for the part's fitment (GET /api/part/{id}): saving sends every fitment row, so a form opened
 * before they arrive would remove them.
 */
function EditProduct({
  part,
  adminEmail,
  onCancel,
  onSave,
}: {
  part: Part;
  adminEmail: string;
  onCancel(): void;
  onSave(patch: PartPatch): Promise<void>;
}) {
  const details = useQuery({ ...partQueryOptions(part._id), staleTime: 0 });
  if (details.isPending) return <LoadingSpinner label="Loading the product…" />;
  if (details.isError) {
    return <LoadError error={details.error} onRetry={() => void details.refetch()} what="this product" />;
  }
  return (
    <ProductForm
      adminEmail={adminEmail}
      part={details.data}
      submitLabel="Save Changes"
      onCancel={onCancel}
      onSubmit={async (values) => {
        const { email: _ignored, ...patch } = values;
        await onSave(patch);
        return 'keep';
      }}
    />
  );
}

/** Manage Products' own filters, kept in the URL: a category, and parts that fit nothing yet. */
function ProductFilters({
  category,
  noFitment,
  onCategory,
  onNoFitment,
}: {
  category: string | undefined;
  noFitment: boolean;
  onCategory(slug: string | undefined): void;
  onNoFitment(on: boolean): void;
}) {
  const categories = useQuery(categoriesQueryOptions);
  const options = categoryOptions(categories.data ?? []);
  return (
    <Row className="g-2 align-items-end mb-2">
      <Col xs={12} sm="auto">
        <Form.Group controlId="manage-products-category">
          <Form.Label>Category</Form.Label>
          <Form.Select value={category ?? ''} onChange={(event) => onCategory(event.target.value || undefined)}>
            <option value="">All categories</option>
            {category && !options.some((option) => option.slug === category) ? (
              <option value={category}>{category}</option>
            ) : null}
            {options.map((option) => (
              <option key={option.slug} value={option.slug}>
                {option.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </Col>
      <Col xs={12} sm="auto" className="pb-sm-2">
        <Form.Check
          type="checkbox"
          id="manage-products-no-fitment"
          label="No fitment yet"
          checked={noFitment}
          onChange={(event) => onNoFitment(event.target.checked)}
        />
      </Col>
    </Row>
  );
}
