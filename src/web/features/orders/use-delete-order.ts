import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { Order } from '../../../shared/schemas/orders.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { deleteOrder, orderKeys } from './orders-api.ts';

/** The Delete flow both order tables share: pick an order, confirm in the dialog, refresh lists and stock. */
export function useDeleteOrder() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Order | null>(null);
  const mutation = useMutation({
    mutationFn: (order: Order) => deleteOrder(order._id),
    onSuccess: async (_data, order) => {
      setPending(null);
      toast.success(`The order of ${order.name} was deleted.`);
      await Promise.all([
        refreshAfterWrite(queryClient, orderKeys.all),
        refreshAfterWrite(queryClient, queryRoots.parts),
      ]);
    },
    onError: (error) => {
      setPending(null);
      toast.error(errorMessage(error));
    },
  });
  return {
    pending,
    ask: (order: Order) => setPending(order),
    cancel: () => setPending(null),
    confirm: () => {
      if (pending) mutation.mutate(pending);
    },
    busy: mutation.isPending,
  };
}
