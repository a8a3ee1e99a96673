import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify/unstyled';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { addressesQueryOptions } from './checkout-api.ts';
import { useDeleteAddress } from './use-checkout-mutations.ts';

/** My Profile's address book: the addresses checkout saved, offered next time; each can be removed. */
export function AddressBookPanel() {
  const saved = useQuery(addressesQueryOptions);
  const remove = useDeleteAddress();
  return (
    <section aria-labelledby="address-book" className="bg-white border rounded p-3 p-md-4 mt-4">
      <h2 id="address-book" className="h5">
        Saved Addresses
      </h2>
      {saved.isPending ? (
        <LoadingSpinner label="Loading your saved addresses…" />
      ) : saved.isError ? (
        <LoadError error={saved.error} onRetry={() => void saved.refetch()} what="your saved addresses" />
      ) : saved.data.length === 0 ? (
        <EmptyState>
          <p className="mb-0">No saved addresses yet. The address you check out with is saved here.</p>
        </EmptyState>
      ) : (
        <ul className="list-unstyled mb-0">
          {saved.data.map((entry) => (
            <li key={entry._id} className="d-flex flex-wrap align-items-center gap-2 py-2 border-bottom">
              <span className="flex-grow-1">
                {entry.address}
                <span className="d-block small text-body-secondary">{entry.phone}</span>
              </span>
              <Button
                variant="outline-danger"
                size="sm"
                disabled={remove.isPending}
                aria-label={`Remove ${entry.address}`}
                onClick={() =>
                  remove.mutate(entry._id, {
                    onSuccess: () => toast.success('Address removed'),
                    onError: (error) => toast.error(errorMessage(error)),
                  })
                }
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
