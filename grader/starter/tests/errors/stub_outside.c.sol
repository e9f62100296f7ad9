int x;
/* === STUB */
int y;
