/** A phone number shown by its last two digits only, e.g. `(•••) •••-••67`. */
export function maskedPhone(lastDigits: string): string {
  return `(•••) •••-••${lastDigits.slice(-2)}`;
}
