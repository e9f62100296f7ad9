int a; // >>> SOLUTION
/* === STUB ok */
#   <<< END extra
