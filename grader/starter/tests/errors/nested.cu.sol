void f(void)
{
    // >>> SOLUTION
    int a = 1;
    // >>> SOLUTION
    // === STUB
    // <<< END
}
