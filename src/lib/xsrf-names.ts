/** Where a submission echoes the XSRF token: a header for scripted calls, a field for forms. */
export const xsrfHeaderName = 'X-XSRF-TOKEN';
export const xsrfFieldName = '_xsrf';
