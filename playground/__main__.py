from playground.console import main


main()
