import { billingView, paymentMethodView, paymentSetupView, type EditPaymentMethodInput } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The firm's billing is one live view ('billing'): a change from any of its consoles refetches it. */
const key = [...queryKeys.view('billing'), 'billing'] as const;

export const useBilling = () => useQuery({ queryKey: key, queryFn: () => api.get('/api/billing', billingView) });

function useBillingMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}

/** Add Payment Method, step one: the provider's setup and the address of its hosted card fields. */
export const useStartSetup = () => useMutation({ mutationFn: () => api.post('/api/billing/setups', paymentSetupView) });
/** Step two: the setup the hosted fields completed (its id only; the card stayed with the provider). */
export const useAddPaymentMethod = () =>
  useBillingMutation((setupId: string) => api.post('/api/billing/payment-methods', paymentMethodView, { setupId }));
export const useEditPaymentMethod = () =>
  useBillingMutation(({ id, ...input }: EditPaymentMethodInput & { id: string }) =>
    api.patch(`/api/billing/payment-methods/${id}`, paymentMethodView, input),
  );
