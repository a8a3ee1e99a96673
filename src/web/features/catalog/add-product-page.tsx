import { useQueryClient } from '@tanstack/react-query';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAuth } from '../accounts/auth-context.tsx';
import { createPart, partKeys } from './parts-api.ts';
import { ProductForm } from './product-form.tsx';

export function Component() {
  usePageTitle('Add A Product');
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="add-product-title">
      <h1 id="add-product-title" className="h3 mb-3">
        Add A Product
      </h1>
      <Card className="p-3 p-md-4">
        <ProductForm
          adminEmail={user?.email ?? ''}
          submitLabel="Add Item"
          onSubmit={async (values) => {
            await createPart(values);
            toast.success(toastMessages.productAdded);
            await queryClient.invalidateQueries({ queryKey: partKeys.all });
            return 'reset';
          }}
        />
      </Card>
    </section>
  );
}
