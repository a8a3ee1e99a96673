import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ProductForm } from './product-form.tsx';
import { useCreatePart } from './use-part-mutations.ts';

export function Component() {
  usePageTitle('Add A Product');
  const { user } = useAuth();
  const create = useCreatePart();
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
            await create.mutateAsync(values);
            toast.success(toastMessages.productAdded);
            return 'reset';
          }}
        />
      </Card>
    </section>
  );
}
