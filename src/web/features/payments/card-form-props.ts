/** What each card form needs from the payment page: the secret, who pays, and what to do with a success. */
export interface CardFormProps {
  clientSecret: string | undefined;
  billing: { name: string; email: string };
  /** Called with the provider's transaction id once the card payment succeeded. */
  onSucceeded(transactionId: string): Promise<void>;
}
