int main(void)
{
    // >>> SOLUTION
    return 0;
    // === STUB
    return 1;
}
