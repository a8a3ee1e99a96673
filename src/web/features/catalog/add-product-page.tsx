import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { usePendingPhotos } from './part-photos-field.tsx';
import { ProductForm } from './product-form.tsx';
import { useCreatePart } from './use-part-mutations.ts';
import { useUploadPendingPhotos } from './use-part-photos.ts';

export function Component() {
  usePageTitle('Add A Product');
  const { user } = useAuth();
  const create = useCreatePart();
  const pending = usePendingPhotos();
  const uploadPhotos = useUploadPendingPhotos();
  return (
    <section aria-labelledby="add-product-title">
      <h1 id="add-product-title" className="h3 mb-3">
        Add A Product
      </h1>
      <Card className="p-3 p-md-4">
        <ProductForm
          adminEmail={user?.email ?? ''}
          submitLabel="Add Item"
          pendingPhotos={pending}
          onSubmit={async (values) => {
            const part = await create.mutateAsync(values);
            // The photos chosen meanwhile, in their order; one refused does not undo the part.
            const files = pending.files.map((item) => item.file);
            if (files.length > 0) {
              const refused = await uploadPhotos.mutateAsync({ partId: part._id, files });
              for (const { file, error } of refused) toast.error(`${file.name}: ${errorMessage(error)}`);
              pending.clear();
            }
            toast.success(toastMessages.productAdded);
            return 'reset';
          }}
        />
      </Card>
    </section>
  );
}
