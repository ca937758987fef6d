/** Words of docs/PRODUCT.md §8 and of the product's own notices, shared by actions and islands. */
export const signInFallbackMessage = 'Unable to sign in at this time. Please try again later.';
export const signedOutMessage = 'You have been signed out.';
